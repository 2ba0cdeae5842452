/**
 * The replica chat page's own script, as ChatGLM's app behaves: it
 * refreshes its access token from the `chatglm_refresh_token` cookie
 * (`POST /chatglm/user-api/user/refresh`; refused, the page shows 登录 and
 * opens the login dialog on send), signs and sends
 * `POST /chatglm/backend-api/assistant/stream` (`X-Timestamp`, `X-Nonce`,
 * `X-Sign`) and renders each frame's snapshot in place of the last one:
 * the chain of thought, the answer with its citation chips, the N 个网页
 * opener of the sources panel; or the dialog / toast a failure brings.
 * Elements are found by the replica's own `data-r` hooks, so a drifted
 * build changes only what a driver sees. A plain string, so no loader
 * rewrites it.
 */
import { DATA_R_KIT, SCRIPT_KIT } from '../common/page-kit.js';

export const PAGE_SCRIPT = String.raw`
(function(){
${SCRIPT_KIT}${DATA_R_KIT}
  var state = { think: false, search: false, menu: null };
  var token = null, conversationId = '', busy = false;
  // The replica's signing secret; the real page's is its own (glm-free-api names one).
  var SECRET = 'replica-sign-secret';

  function toggle(key, label){
    var on = state[key];
    return '<div class="tool-chip" role="button" tabindex="0" aria-pressed="' + on + '" data-r="' + key + '" data-mode-control="' +
      (key === 'think' ? 'thinking' : 'search') + '">' + label + '</div>';
  }
  function renderTools(){
    var open = state.menu === 'model';
    var model = '<span style="position:relative"><button type="button" class="model-select" aria-haspopup="menu" aria-expanded="' + open + '" data-r="model-picker">GLM-4.6</button>' +
      (open ? '<div class="model-menu" role="menu"><div role="menuitemradio" aria-checked="true" tabindex="0" data-r="model-item">GLM-4.6</div>' +
        '<div role="menuitemradio" aria-checked="false" tabindex="0" data-r="model-item">GLM-4.5-Air</div></div>' : '') + '</span>';
    $('tools').innerHTML = model + toggle('think', '深度思考') + toggle('search', '联网搜索') +
      '<div class="enter-icon-container" role="button" tabindex="0" aria-label="发送" data-r="send"' + (busy ? ' hidden' : '') + '></div>' +
      '<div class="stop-btn" role="button" tabindex="0" aria-label="停止生成" data-r="stop"' + (busy ? '' : ' hidden') + '></div>';
  }
  onHook('tools', function(r){
    if (r === 'think' || r === 'search') state[r] = !state[r];
    else if (r === 'model-picker') state.menu = state.menu ? null : 'model';
    else if (r === 'model-item') state.menu = null;
    else if (r === 'send') return submit();
    else return;
    renderTools();
  });

  exposeModes({ thinking: '深度思考', search: '联网搜索' }, ['GLM-4-Flash 快速', 'GLM-Z1 深度思考']);

  function renderHeader(){
    $('header').innerHTML = token
      ? '<div class="user-name">智谱复制用户</div>'
      : '<button type="button" class="login-btn" data-r="login-btn">登录</button>';
    var b = $('login-btn');
    if (b) b.addEventListener('click', function(){ show('login'); });
  }

  fetch('/chatglm/user-api/user/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    .then(function(r){ return r.json(); })
    .then(function(b){
      token = b && b.status === 0 && b.result ? b.result.access_token : null;
      renderHeader(); $('loading').remove(); $('input-box').hidden = false;
    });
  renderTools();

  var editor = $('editor');
  sendOnEnter(editor, submit);
  onNewChat(function(){ return busy; }, function(){
    conversationId = '';
    $('list').innerHTML = '';
    $('refs').hidden = true;
    history.replaceState(null, '', '/main/alltoolsdetail');
  });

  async function sign(){
    var ts = String(Date.now());
    var nonce = crypto.randomUUID().replace(/-/g, '');
    var hex = await sha256Hex(ts + '-' + nonce + '-' + SECRET);
    return { 'X-Timestamp': ts, 'X-Nonce': nonce, 'X-Sign': hex.slice(0, 32) };
  }

  function newTurn(prompt){
    var q = document.createElement('div');
    q.className = 'question';
    q.textContent = prompt;
    var a = document.createElement('div');
    a.className = 'answer';
    a.innerHTML = '<div class="think-block" data-r="think-text" hidden></div>' +
      '<div class="search-source-opener" role="button" tabindex="0" data-r="refs-opener" hidden></div>' +
      '<div class="markdown-body" data-r="answer"></div>';
    $('list').appendChild(q);
    $('list').appendChild(a);
    return a;
  }
  function markdown(text, sources){
    var inline = function(s){
      return esc(s).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/【(turn\d+[a-z]+\d+)】/gi, function(m, key){
          var at = sources.findIndex(function(x){ return x.key === key; });
          return at < 0 ? '' : '<sup class="cite-chip">' + (at + 1) + '</sup>';
        })
        .replace(/【(\d+)†(?:来源|源|source)】/g, function(m, n){
          return Number(n) < sources.length ? '<sup class="cite-chip">' + (Number(n) + 1) + '</sup>' : '';
        });
    };
    return markdownLines(text, inline);
  }
  function openRefs(sources){
    var refs = $('refs');
    refs.innerHTML = '<h3>参考来源</h3>' + sources.map(function(s, i){
      return '<a class="source-card" href="' + esc(s.url) + '" target="_blank"><span>' + (i + 1) + '</span> <span>' +
        esc(s.site || '') + '</span><h4>' + esc(s.title) + '</h4></a>';
    }).join('');
    refs.hidden = false;
  }
  // One snapshot read whole: it replaces what the last one showed.
  function snapshot(parts){
    var texts = [], thoughts = [], sources = [];
    parts.forEach(function(p){
      var meta = p.meta_data || {}, partText = '';
      (p.content || []).forEach(function(it){
        if (it.type === 'text') partText += (it.text !== undefined ? it.text : it.content) || '';
        else if (it.type === 'rich_text') partText += it.content || '';
        else if (it.type === 'think') thoughts.push(it.think || '');
        else if (it.type === 'tool_result') ((meta.tool_result_extra || {}).search_results || []).forEach(function(r){
          sources.push({ title: r.title, url: r.url, site: r.site_name, key: r.match_key }); });
        else if (it.type === 'quote_result') (meta.metadata_list || []).forEach(function(r){
          sources.push({ title: r.title, url: r.url, site: r.site_name }); });
      });
      if (partText) texts.push(partText);
    });
    return { text: texts.join('\n'), thinking: thoughts.join('\n'), sources: sources };
  }
  function render(turn, s){
    var think = $('think-text', turn);
    think.hidden = !s.thinking; think.textContent = s.thinking;
    var opener = $('refs-opener', turn);
    opener.hidden = s.sources.length === 0;
    opener.textContent = s.sources.length + ' 个网页';
    opener.onclick = function(){ openRefs(s.sources); };
    $('answer', turn).innerHTML = markdown(s.text, s.sources);
  }

  async function readStream(res, turn){
    var done = false;
    await readEvents(res, function(name, data){
      if (done || !data) return;
      var f = JSON.parse(data);
      if (f.conversation_id && !conversationId) {
        conversationId = f.conversation_id;
        history.replaceState(null, '', '/main/alltoolsdetail?cid=' + conversationId);
      }
      if (Array.isArray(f.parts)) render(turn, snapshot(f.parts));
      if (f.status === 'intervene') {
        $('answer', turn).textContent = (f.last_error && f.last_error.intervene_text) || '';
        done = true;
      } else if (f.status === 'finish') done = true;
    });
  }

  async function submit(){
    var prompt = editor.value.trim();
    if (busy || !prompt) return;
    if (!token) return show('login');
    busy = true;
    renderTools();
    editor.value = '';
    $('toast').hidden = true;
    var turn = newTurn(prompt);
    try {
      var meta = { channel: '', draft_id: '', if_plus_model: true, input_question_type: 'xxxx',
        is_networking: state.search, is_test: false, platform: 'pc', quote_log_id: '' };
      if (state.think) meta.chat_mode = 'zero';
      var text = JSON.stringify({ assistant_id: '65940acff94777010aa6b796', conversation_id: conversationId,
        project_id: '', chat_type: 'user_chat', messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }], meta_data: meta });
      var headers = await sign();
      headers['content-type'] = 'application/json';
      headers.authorization = 'Bearer ' + token;
      var res = await fetch('/chatglm/backend-api/assistant/stream', { method: 'POST', headers: headers, body: text });
      if (res.status === 401) { token = null; renderHeader(); show('login'); return; }
      if ((res.headers.get('content-type') || '').indexOf('text/event-stream') < 0) {
        var err = await res.json().catch(function(){ return null; });
        var message = (err && err.message) || '请求失败';
        if (/验证/.test(message)) show('captcha');
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
