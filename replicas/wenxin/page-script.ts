/**
 * The replica chat page's own script, as Yiyan's app behaves: it asks who is
 * there (`POST /eb/user/info`; a logged-out page shows 登录 and opens Baidu's
 * passport layer on send), draws the mode controls of the page's build
 * (PAGE_VARIANT: the 深度思考 chip beside the ERNIE model picker, or the
 * thinking model only in the picker, or no 联网搜索), opens a session
 * (`POST /eb/session/new`), computes the `Acs-Token` from the inputs the
 * site hands out now (`GET /eb/acs/config`: they change irregularly), sends
 * `POST /eb/chat/conversation/v2` with it (header and body `sign`) and
 * renders the SSE stream as it arrives (the thought, the answer with its
 * citation chips, the N 篇参考资料 opener of the sources panel), or the
 * passport layer, the slider / rotating-image verification or the toast a
 * failure brings. Elements are found by the replica's own `data-r` hooks, so
 * a hashed build changes only what a driver sees. A plain string, so no
 * loader rewrites it.
 */
import { DATA_R_KIT, SCRIPT_KIT } from '../common/page-kit.js';

export const PAGE_SCRIPT = String.raw`
(function(){
${SCRIPT_KIT}${DATA_R_KIT}
  var LABELS = { EB45T: '文心4.5 Turbo', EB5: '文心5.0', X1T: '文心X1 Turbo' };
  var state = { think: false, search: false, model: 'EB45T', menu: false };
  var user = null, sessionId = null, parentChatId = '0', busy = false;

  function post(path, body){
    return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(function(r){ return r.json(); });
  }

  // The mode controls as this build draws them.
  function renderTools(){
    var shown = LABELS[state.think ? 'X1T' : state.model];
    var items = PAGE_VARIANT === 'model_menu' ? ['EB45T', 'X1T', 'EB5'] : ['EB45T', 'EB5'];
    var html = '<span style="position:relative" data-mode-control="thinking"><button type="button" class="ci-model-select" aria-haspopup="menu" aria-expanded="' + state.menu +
      '" data-r="model-picker">' + shown + '</button>';
    if (state.menu) html += '<div class="ci-model-menu" role="menu">' + items.map(function(m){
      return '<div role="menuitemradio" tabindex="0" aria-checked="' + (LABELS[m] === shown) + '" data-r="model-item" data-value="' + m + '">' + LABELS[m] + '</div>';
    }).join('') + '</div>';
    html += '</span>';
    if (PAGE_VARIANT !== 'model_menu')
      html += '<div class="ci-model-button ' + (state.think ? 'ci-model-button-active' : 'ci-model-button-inactive') +
        '" role="button" tabindex="0" aria-pressed="' + state.think + '" data-ci-show-ext=\'{"is_open":"' + (state.think ? 1 : 0) +
        '"}\' data-mode-control="thinking" data-r="think"><div class="internet-search-icon"></div>深度思考</div>';
    if (PAGE_VARIANT !== 'no_search')
      html += '<div class="ci-search-button" role="button" tabindex="0" aria-pressed="' + state.search +
        '" data-mode-control="search" data-r="search">联网搜索</div>';
    html += '<span class="ci-submit-button" role="button" tabindex="0" aria-label="发送" data-r="send"' + (busy ? ' hidden' : '') + '></span>' +
      '<div class="markdown-loading" role="button" tabindex="0" aria-label="停止生成" data-r="stop"' + (busy ? '' : ' hidden') + '></div>';
    $('tools').innerHTML = html;
  }
  onHook('tools', function(r, el){
    if (r === 'think' || r === 'search') state[r] = !state[r];
    else if (r === 'model-picker') state.menu = !state.menu;
    else if (r === 'model-item') {
      var m = el.getAttribute('data-value');
      if (m === 'X1T') state.think = true; else { state.think = false; state.model = m; }
      state.menu = false;
    }
    else if (r === 'send') return submit();
    else return;
    renderTools();
  });

  exposeModes({ thinking: '深度思考', search: '联网搜索' }, ['文心4.5 Turbo', '文心X1 Turbo']);

  function renderHeader(){
    $('header').innerHTML = user
      ? '<div class="user-name">' + esc(user.nickname) + '</div>'
      : '<button type="button" class="login-button" data-r="login-btn">登录</button>';
    var b = $('login-btn');
    if (b) b.addEventListener('click', openLogin);
  }
  // Baidu's passport layer, drawn when the page needs it: the SMS form and the app's QR code.
  function openLogin(){
    $('login').innerHTML = '<div class="yy-dialog__body"><p><span class="switch-item">短信登录</span> · <span class="switch-item">账号登录</span></p>' +
      '<input id="TANGRAM__PSP_11__smsPhone" type="tel" placeholder="手机号">' +
      '<p class="tang-pass-qrcode-title">扫码登录</p><iframe title="百度App扫码登录" src="/__replica/passport-qr"></iframe></div>';
    show('login');
  }

  post('/eb/user/info', {}).then(function(b){
    user = b && b.data && b.data.isLogin ? b.data : null;
    renderHeader(); $('loading').remove(); $('input-box').hidden = false;
  });
  renderTools();

  var editor = $('editor');
  sendOnEnter(editor, submit);
  onNewChat(function(){ return busy; }, function(){
    sessionId = null; parentChatId = '0';
    $('list').innerHTML = '';
    $('refs').hidden = true;
    history.replaceState(null, '', '/');
  });

  function cookie(name){
    var m = document.cookie.match(new RegExp('(?:^|; )' + name + '=([^;]*)'));
    return m ? decodeURIComponent(m[1]) : '';
  }
  // The Acs-Token: the inputs the site hands out now, the device, the time and the text.
  async function acsToken(ts, text){
    var cfg = (await (await fetch('/eb/acs/config')).json()).data;
    return cfg.version + ':' + ts + ':' + (await sha256Hex(cfg.seed + '|' + cookie('BAIDUID') + '|' + ts + '|' + text));
  }

  function newTurn(prompt){
    var human = document.createElement('div');
    human.className = 'dialogue-human';
    human.textContent = prompt;
    var ai = document.createElement('div');
    ai.className = 'conversation-flow-answer-container';
    ai.innerHTML = '<div class="ai-thinking-steps" data-r="think-text" hidden></div>' +
      '<div class="chat-search-answer-generate"><div class="answer-markdown" data-r="answer"></div></div>' +
      '<div class="source-opener" role="button" tabindex="0" data-r="refs-opener" hidden></div>';
    $('list').appendChild(human);
    $('list').appendChild(ai);
    return ai;
  }
  function markdown(text){
    var inline = function(s){
      return esc(s).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/\^\[(\d+)\]\^/g, function(m, n){
        return '<span class="cite-chip">' + n + '</span>';
      });
    };
    return markdownLines(text, inline);
  }
  function openRefs(list){
    var refs = $('refs');
    refs.innerHTML = '<h3>参考资料</h3>' + list.map(function(c){
      return '<a class="cosd-note-card" href="' + esc(c.url) + '" target="_blank"><span>' + esc(c.index) + '</span> <span>' +
        esc(c.site) + '</span><h4>' + esc(c.title) + '</h4><p>' + esc(c.wild_abstract) + '</p></a>';
    }).join('');
    refs.hidden = false;
  }

  async function readStream(res, turn){
    var think = '', answer = '', cites = [], done = false;
    await readEvents(res, function(event, data){
      if (done || !data) return;
      var f = JSON.parse(data), d = f.data || {};
      if (f.code) { toast(f.msg || '请求失败'); done = true; return; }
      var list = (d.searchCitations && d.searchCitations.list) || (f.searchCitations && f.searchCitations.list);
      if (list) cites = list;
      if (event === 'thought') think += d.content || '';
      else if (event === 'markdown') answer += d.text || '';
      else if (event === 'message') {
        if (typeof d.tokens_all === 'string' && d.is_end !== 1) answer = d.tokens_all.replace(/<br>/g, '\n');
        else if (typeof d.tokens_all !== 'string' || answer === '') answer += (d.content !== undefined ? d.content : d.text || '').replace(/<br>/g, '\n');
        if (d.is_end === 1) done = true;
      }
    }, function(){
      if (think) { $('think-text', turn).hidden = false; $('think-text', turn).textContent = think; }
      if (cites.length) {
        var opener = $('refs-opener', turn);
        opener.hidden = false;
        opener.textContent = cites.length + ' 篇参考资料';
        opener.onclick = (function(list){ return function(){ openRefs(list); }; })(cites);
      }
      $('answer', turn).innerHTML = markdown(answer);
    });
  }

  function failed(b){
    var msg = (b && b.msg) || '请求失败', verify = b && b.data && b.data.verifyType;
    if (verify) {
      $('captcha-text').textContent = verify === 'rotate' ? '请拖动滑块，旋转图片至正确角度' : '请拖动滑块完成拼图';
      show('captcha');
    } else if (/登录/.test(msg)) { user = null; renderHeader(); openLogin(); }
    else toast(msg);
  }

  async function submit(){
    var prompt = editor.value.trim();
    if (busy || !prompt) return;
    if (!user) return openLogin();
    busy = true;
    renderTools();
    editor.value = '';
    $('toast').hidden = true;
    var turn = newTurn(prompt);
    try {
      if (!sessionId) {
        var s = await post('/eb/session/new', { deviceType: 'pc', sessionName: prompt.slice(0, 20), timestamp: Date.now() });
        if (s.code) return failed(s);
        sessionId = s.data.sessionId;
        history.replaceState(null, '', '/chat/' + sessionId);
      }
      var ts = Date.now();
      var token = await acsToken(ts, prompt);
      var body = { sessionId: sessionId, parentChatId: parentChatId, text: prompt, type: 10, deviceType: 'pc',
        model: state.think ? 'X1T' : state.model, search: state.search ? 1 : 0, timestamp: ts, sign: token };
      var res = await fetch('/eb/chat/conversation/v2', { method: 'POST',
        headers: { 'content-type': 'application/json', 'Acs-Token': token }, body: JSON.stringify(body) });
      if ((res.headers.get('content-type') || '').indexOf('text/event-stream') < 0)
        return failed(await res.json().catch(function(){ return null; }));
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
