/**
 * The replica chat page's own script, as Yuanbao's app behaves: it loads
 * the user (`GET /api/getuserinfo`; a logged-out page shows 登录 and opens
 * the QR login dialog on send), renders the mode controls of the page's
 * build (PAGE_VARIANT), creates a conversation, signs and sends
 * `POST /api/chat/{id}` and renders the SSE stream as it arrives (chain of
 * thought, the answer with its citation chips, the N 篇资料 opener of the
 * sources drawer), or the dialog / toast a failure brings. Elements are
 * found by the replica's own `data-r` hooks, so a hashed build changes only
 * what a driver sees. A plain string, so no loader rewrites it.
 */
import { DATA_R_KIT, SCRIPT_KIT } from '../common/page-kit.js';

export const PAGE_SCRIPT = String.raw`
(function(){
${SCRIPT_KIT}${DATA_R_KIT}
  var state = { think: false, search: false, model: 'hunyuan', menu: null };
  var user = null, conversationId = null, busy = false;


  // The mode controls as this build draws them.
  function toggle(key, label, extra){
    var on = state[key];
    extra += ' data-mode-control="' + (key === 'think' ? 'thinking' : 'search') + '"';
    if (PAGE_VARIANT === 'switch')
      return '<div class="yb-chip" role="switch" tabindex="0" aria-checked="' + on + '" data-r="' + key + '" ' + extra + '>' + label + '</div>';
    if (PAGE_VARIANT === 'hashed')
      return '<div class="yb-chip" role="button" tabindex="0" aria-pressed="' + on + '" data-r="' + key + '" ' + extra + '>' + label + '</div>';
    var cls = key === 'think'
      ? 'ThinkSelector_iconContainer__k2p' + (on ? ' ThinkSelector_selected__q8x' : '')
      : 'yb-internet-search-btn' + (on ? ' index_v2_active__mMizI' : '');
    return '<div class="yb-chip ' + cls + '" role="button" tabindex="0" data-r="' + key + '" ' + extra + '>' + label + '</div>';
  }
  function picker(key, shown, items){
    var open = state.menu === key;
    var html = '<span style="position:relative"><button type="button" class="yb-chip" aria-haspopup="menu" aria-expanded="' + open + '" data-r="' + key + '-picker">' + shown + '</button>';
    if (open) {
      html += '<div class="yb-menu" role="menu">' + items.map(function(it){
        return '<div role="menuitemradio" tabindex="0" aria-checked="' + (it[0] === shown) + '" data-r="' + key + '-item" data-value="' + it[1] + '">' + it[0] + '</div>';
      }).join('') + '</div>';
    }
    return html + '</span>';
  }
  function renderTools(){
    var model = picker('model', state.model === 'deepseek' ? 'DeepSeek' : 'Hy3', [['Hy3', 'hunyuan'], ['DeepSeek', 'deepseek']])
      .replace('data-r="model-picker"', 'data-r="model-picker" dt-button-id="model_switch"');
    var think = PAGE_VARIANT === 'merged'
      ? picker('think', state.think ? '深度思考' : '快速回答', [['快速回答', 'off'], ['深度思考', 'on'], ['专家模式', 'expert']])
      : toggle('think', '深度思考', 'dt-button-id="deep_think"');
    var search = PAGE_VARIANT === 'no_search' ? '' : toggle('search', '联网搜索', '');
    $('tools').innerHTML = model + think + search +
      '<a id="yuanbao-send-btn" class="style__send-btn___RwTm5" role="button" tabindex="0" aria-label="发送" data-r="send"' + (busy ? ' hidden' : '') + '></a>' +
      '<div class="yb-stop-btn" role="button" tabindex="0" aria-label="停止回答" data-r="stop"' + (busy ? '' : ' hidden') + '></div>';
  }
  onHook('tools', function(r, el){
    if (r === 'think' || r === 'search') state[r] = !state[r];
    else if (r === 'model-picker' || r === 'think-picker') { var k = r.split('-')[0]; state.menu = state.menu === k ? null : k; }
    else if (r === 'model-item') { state.model = el.getAttribute('data-value'); state.menu = null; }
    else if (r === 'think-item') { var v = el.getAttribute('data-value'); if (v !== 'expert') state.think = v === 'on'; state.menu = null; }
    else if (r === 'send') return submit();
    else return;
    renderTools();
  });

  exposeModes({ thinking: '深度思考', search: '联网搜索' }, ['TurboS', 'T1 深度思考']);

  function renderHeader(){
    $('header').innerHTML = user
      ? '<div class="yb-user">' + esc(user.nickname) + '</div>'
      : '<button type="button" class="yb-login-btn" data-r="login-btn">登录</button>';
    var b = $('login-btn');
    if (b) b.addEventListener('click', openLogin);
  }
  function openLogin(){ $('qr').src = '/__replica/wx-qr'; show('login'); }

  // The app shows its composer once it knows who is there (a visitor too: 登录 then).
  fetch('/api/getuserinfo').then(function(r){ return r.ok ? r.json() : null; }).then(function(u){
    user = u; renderHeader(); $('loading').remove(); $('input-box').hidden = false;
  });
  renderTools();

  var editor = $('editor');
  sendOnEnter(editor, submit);
  onNewChat(function(){ return busy; }, function(){
    conversationId = null;
    $('list').innerHTML = '';
    $('refs').hidden = true;
    history.replaceState(null, '', '/chat/naQivTmsDa');
  });

  async function sign(body){
    var ts = String(Date.now());
    var key = crypto.randomUUID();
    var hex = await sha256Hex(ts + key + body);
    return { 'x-timestamp': ts, 'x-uskey': key, 'x-bus-params-md5': hex.slice(0, 32) };
  }

  function newTurn(prompt){
    var human = document.createElement('div');
    human.className = 'agent-chat__bubble agent-chat__bubble--human';
    human.textContent = prompt;
    var ai = document.createElement('div');
    ai.className = 'agent-chat__bubble agent-chat__bubble--ai';
    ai.innerHTML = '<div class="hyc-component-deepsearch-cot__think" data-r="think-text" hidden></div>' +
      '<div class="agent-dialogue-references__opener" role="button" tabindex="0" data-r="refs-opener" hidden></div>' +
      '<div class="hyc-common-markdown" data-r="answer"></div>';
    $('list').appendChild(human);
    $('list').appendChild(ai);
    return ai;
  }
  function markdown(text, docs){
    var inline = function(s){
      return esc(s).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/\[citation:(\d+)\]/g, function(m, n){
        return '<span class="hyc-common-markdown__ref">' + n + '</span>';
      });
    };
    return markdownLines(text, inline);
  }
  function openRefs(docs){
    var refs = $('refs');
    refs.innerHTML = '<h3>参考资料</h3>' + docs.map(function(d){
      return '<a class="agent-dialogue-references__ref_card" href="' + esc(d.url) + '" target="_blank">' +
        '<span>' + d.index + '</span> <span>' + esc(d.web_site_name) + '</span><h4>' + esc(d.title) + '</h4><p>' + esc(d.quote) + '</p></a>';
    }).join('');
    refs.hidden = false;
  }

  async function readStream(res, turn){
    var think = '', answer = '', docs = [], done = false;
    await readEvents(res, function(name, data){
      if (done || !data) return;
      if (data === '[DONE]') { done = true; return; }
      if (data.charAt(0) !== '{') return;
      var f = JSON.parse(data);
      if (f.type === 'think') think += f.content || '';
      else if (f.type === 'searchGuid') docs = f.docs || [];
      else if (f.type === 'text') answer += (f.msg !== undefined ? f.msg : f.content || f.message) || '';
      else if (f.type === 'markdown') answer += f.msg || '';
      else if (f.type === 'verify') { $('location-text').textContent = f.msg; show('location'); }
    }, function(){
      if (think) { $('think-text', turn).hidden = false; $('think-text', turn).textContent = think; }
      if (docs.length) {
        var opener = $('refs-opener', turn);
        opener.hidden = false;
        opener.textContent = docs.length + ' 篇资料';
        opener.onclick = function(){ openRefs(docs); };
      }
      $('answer', turn).innerHTML = markdown(answer, docs);
    });
  }

  async function submit(){
    var prompt = editor.innerText.trim();
    if (busy || !prompt) return;
    if (!user) return openLogin();
    busy = true;
    renderTools();
    editor.innerHTML = '';
    $('toast').hidden = true;
    var turn = newTurn(prompt);
    try {
      if (!conversationId) {
        var c = await fetch('/api/user/agent/conversation/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"agentId":"naQivTmsDa"}' });
        if (c.status === 401) { user = null; renderHeader(); return openLogin(); }
        conversationId = (await c.json()).id;
        history.replaceState(null, '', '/chat/naQivTmsDa/' + conversationId);
      }
      var chatModelId = state.model === 'deepseek'
        ? (state.think ? 'deep_seek' : 'deep_seek_v3')
        : (state.think ? 'hunyuan_t1' : 'hunyuan_gpt_175B_0404');
      var body = { model: 'gpt_175B_0404', prompt: prompt, plugin: 'Adaptive', displayPrompt: prompt, displayPromptType: 1,
        options: { imageIntention: { needIntentionModel: true, backendUpdateFlag: 2, intentionStatus: true } },
        multimedia: [], agentId: 'naQivTmsDa', supportHint: 1, version: 'v2', chatModelId: chatModelId };
      if (state.search) body.supportFunctions = ['supportInternetSearch'];
      var text = JSON.stringify(body);
      var headers = await sign(text);
      headers['content-type'] = 'application/json';
      var res = await fetch('/api/chat/' + conversationId, { method: 'POST', headers: headers, body: text });
      if (res.status === 401) { user = null; renderHeader(); openLogin(); return; }
      if ((res.headers.get('content-type') || '').indexOf('text/event-stream') < 0) {
        var err = await res.json().catch(function(){ return null; });
        var message = (err && err.error && err.error.message) || '请求失败';
        if (/验证/.test(message)) { $('captcha-frame').src = '/__replica/captcha'; show('captcha'); }
        else toast(message);
        return;
      }
      await readStream(res, turn);
    } catch (e) {
      toast('网络错误，请重试');
    } finally {
      busy = false;
      renderTools();
    }
  }
})();
`;
