/**
 * The replica chat page's own script, as Qwen's app behaves: it checks the
 * session (`GET /api/v2/users/status` with the JWT from localStorage
 * `token` as Bearer, or the domestic ticket cookie; a dead session goes to
 * the sign-in page), draws the mode controls and the model picker, creates
 * the chat (`POST /api/v2/chats/new`), signs each call as the baxia script
 * does (`bx-ua`, `bx-umidtoken`, `bx-v`) and sends `POST
 * /api/v2/chat/completions?chat_id=…` (the domestic build: `POST
 * /dialog/conversation`), then renders the SSE stream as it arrives in any
 * of the site's formats (reasoning, the answer with its citation chips, the
 * N 个来源 opener of the sources panel), or what a failure brings: the WAF's
 * slider, a toast. Elements are found by the replica's own `data-r` hooks,
 * so a drifted build changes only what a driver sees. A plain string, so no
 * loader rewrites it.
 */
import { DATA_R_KIT, SCRIPT_KIT } from '../common/page-kit.js';

export const PAGE_SCRIPT = String.raw`
(function(){
${SCRIPT_KIT}${DATA_R_KIT}
  var MODELS = [['Qwen3-Max', 'qwen3-max'], ['Qwen3-235B-A22B-2507', 'qwen3-235b-a22b'], ['QwQ-32B', 'qwq-32b']];
  var state = { think: false, search: false, model: 0, menu: false };
  var chatId = null, busy = false;
  var umid = 'T2gA' + crypto.randomUUID().replace(/-/g, '');
  var token = localStorage.getItem('token') || '';


  function toggle(key, label, cls){
    var on = state[key];
    return '<div class="chat-input-feature-btn ' + cls + (on ? ' active' : '') + '" role="button" tabindex="0" aria-pressed="' + on +
      '" data-r="' + key + '" data-mode-control="' + (key === 'think' ? 'thinking' : 'search') + '">' + label + '</div>';
  }
  function renderTools(){
    $('tools').innerHTML = toggle('think', '深度思考', 'thinking-toggle') + toggle('search', '联网搜索', 'web-search-toggle') +
      '<button type="button" id="send-message-button" aria-label="发送" data-r="send"' + (busy ? ' hidden' : '') + '>↑</button>' +
      '<button type="button" aria-label="停止生成" data-r="stop"' + (busy ? '' : ' hidden') + '>■</button>';
  }
  function renderModel(){
    var html = '<button type="button" id="model-selector-0-button" aria-haspopup="menu" aria-expanded="' + state.menu + '" data-r="model-picker">' +
      MODELS[state.model][0] + '</button>';
    if (state.menu) html += '<div class="model-menu" role="menu">' + MODELS.map(function(m, i){
      return '<div role="menuitemradio" tabindex="0" aria-checked="' + (i === state.model) + '" data-r="model-item" data-value="' + i + '">' + m[0] + '</div>';
    }).join('') + '</div>';
    $('model').innerHTML = html;
  }
  onHook('tools', function(r){
    if (r === 'think' || r === 'search') { state[r] = !state[r]; renderTools(); }
    else if (r === 'send') submit();
  });
  onHook('model', function(r, el){
    if (r === 'model-picker') state.menu = !state.menu;
    else { state.model = Number(el.getAttribute('data-value')); state.menu = false; }
    renderModel();
  });

  exposeModes({ thinking: '深度思考', search: '联网搜索' }, ['快速模式', '深度思考模式']);

  var headers = function(){ return token ? { authorization: 'Bearer ' + token } : {}; };
  fetch('/api/v2/users/status', { headers: headers() }).then(function(r){ return r.json(); }).then(function(b){
    if (!b || b.success !== true) { location.href = '/auth?action=signin'; return; }
    $('loading').remove(); $('composer').hidden = false;
  });
  renderTools(); renderModel();

  var input = $('input');
  sendOnEnter(input, submit);
  onNewChat(function(){ return busy; }, function(){
    chatId = null;
    $('list').innerHTML = '';
    $('sources').hidden = true;
    history.replaceState(null, '', '/');
  });

  // The baxia script's signature over the body: fresh, tied to this page's umid token.
  async function sign(body){
    var ts = String(Date.now());
    var hex = await sha256Hex(ts + umid + body);
    return { 'bx-ua': '231!' + ts + '.' + hex.slice(0, 40), 'bx-umidtoken': umid, 'bx-v': '2.5.31' };
  }

  function newTurn(prompt){
    var human = document.createElement('div');
    human.className = 'user-message';
    human.textContent = prompt;
    var ai = document.createElement('div');
    ai.className = 'chat-response-message';
    ai.innerHTML = '<div class="thinking-block" data-r="think-text" hidden></div>' +
      '<button type="button" class="search-sources-opener" data-r="sources-opener" hidden></button>' +
      '<div id="response-content-container" class="markdown-content-container" data-r="answer"></div>';
    $('list').appendChild(human);
    $('list').appendChild(ai);
    return ai;
  }
  function markdown(text){
    var inline = function(s){
      return esc(s).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/\[\[(\d+)\]\]/g, function(m, n){
        return '<sup class="citation-chip">' + n + '</sup>';
      });
    };
    return markdownLines(text, inline);
  }
  function openSources(list){
    var panel = $('sources');
    panel.innerHTML = '<h3>搜索来源</h3>' + list.map(function(s, i){
      return '<a class="search-source-card" href="' + esc(s.url) + '" target="_blank"><span>' + (i + 1) + '</span> <span>' +
        esc(s.hostname || s.source || '') + '</span><h4>' + esc(s.title) + '</h4></a>';
    }).join('');
    panel.hidden = false;
  }

  // What the frames say, whichever format: the page's reply so far.
  function reader(){
    var r = { think: '', answer: '', sources: [], done: false, error: null };
    r.apply = function(f){
      if (r.done) return;
      if (f.msgStatus !== undefined || Array.isArray(f.contents)) {
        var text = '', think = '';
        (f.contents || []).forEach(function(c){
          if (c.contentType === 'text') text += c.content;
          else if (c.contentType === 'think') think += c.content;
          else if (c.contentType === 'referenceLink') r.sources = JSON.parse(c.content).links;
        });
        r.answer = text; r.think = think;
        if (f.msgStatus === 'finished') { r.done = true; if (f.canShare === false) { r.answer = ''; r.error = '内容由于不合规被停止生成'; } }
        return;
      }
      if (f.error) { r.error = f.error.details || f.error.code; r.done = true; return; }
      var d = f.choices && f.choices[0] && f.choices[0].delta;
      if (!d) return;
      if (d.extra && d.extra.web_search_info) r.sources = d.extra.web_search_info;
      if (d.phase === 'think') r.think += d.content || '';
      else if (d.phase === 'thinking_summary') {
        var st = d.extra && d.extra.summary_thought;
        if (st && st.content) r.think = st.content.join('\n');
      }
      else if (d.phase === 'answer' || d.phase === 'markdown') r.answer += (d.content !== undefined ? d.content : d.text) || '';
      if (d.phase === 'answer' && d.status === 'finished') r.done = true;
    };
    return r;
  }

  async function readStream(res, turn){
    var r = reader();
    await readEvents(res, function(name, data){
      if (!data) return;
      if (data === '[DONE]') { r.done = true; return; }
      if (data.charAt(0) === '{') r.apply(JSON.parse(data));
    }, function(){
      if (r.think) { $('think-text', turn).hidden = false; $('think-text', turn).textContent = r.think; }
      if (r.sources.length) {
        var opener = $('sources-opener', turn), list = r.sources;
        opener.hidden = false;
        opener.textContent = list.length + ' 个来源';
        opener.onclick = function(){ openSources(list); };
      }
      $('answer', turn).innerHTML = markdown(r.answer);
    });
    if (r.error) toast(r.error);
  }

  async function failed(res){
    var type = res.headers.get('content-type') || '';
    if (type.indexOf('text/html') >= 0) {
      var html = await res.text();
      if (/滑块/.test(html)) $('slider').hidden = false;
      else toast('访问被拒绝');
      return;
    }
    var b = await res.json().catch(function(){ return null; });
    var d = b && (b.data || {});
    if (d && d.code === 'Unauthorized') { toast('登录已过期，请重新登录'); return; }
    toast((d && d.details) || (b && b.ret && b.ret[0]) || '请求失败');
  }

  function intlBody(prompt){
    var model = MODELS[state.model][1], type = state.search ? 'search' : 't2t';
    return { stream: true, incremental_output: true, chat_id: chatId, chat_mode: 'normal', model: model, parent_id: null,
      messages: [{ fid: crypto.randomUUID(), parentId: null, childrenIds: [], role: 'user', content: prompt, user_action: 'chat',
        files: [], timestamp: Math.floor(Date.now() / 1000), models: [model], chat_type: type,
        feature_config: { thinking_enabled: state.think, output_schema: 'phase' }, extra: { meta: { subChatType: type } },
        sub_chat_type: type }], timestamp: Math.floor(Date.now() / 1000) };
  }
  function domesticBody(prompt){
    return { model: '', action: 'next', mode: 'chat', userAction: 'chat', requestId: crypto.randomUUID().replace(/-/g, ''),
      sessionId: chatId || '', sessionType: 'text_chat', parentMsgId: '',
      params: { agentId: '', searchType: state.search ? 'web' : '', deepThink: state.think },
      contents: [{ role: 'user', contentType: 'text', content: prompt }] };
  }

  async function submit(){
    var prompt = input.value.trim();
    if (busy || !prompt) return;
    busy = true;
    renderTools();
    input.value = '';
    $('toast').hidden = true;
    var turn = newTurn(prompt);
    try {
      var url;
      if (SITE_KIND === 'domestic') url = '/dialog/conversation';
      else {
        if (!chatId) {
          var c = await fetch('/api/v2/chats/new', { method: 'POST', headers: Object.assign({ 'content-type': 'application/json' }, headers()),
            body: JSON.stringify({ title: '新建对话', models: [MODELS[state.model][1]], chat_mode: 'normal', chat_type: 't2t', timestamp: Date.now() }) });
          var made = await c.json();
          if (!made.success) { toast('登录已过期，请重新登录'); return; }
          chatId = made.data.id;
          history.replaceState(null, '', '/c/' + chatId);
        }
        url = '/api/v2/chat/completions?chat_id=' + chatId;
      }
      var text = JSON.stringify(SITE_KIND === 'domestic' ? domesticBody(prompt) : intlBody(prompt));
      var h = Object.assign(await sign(text), { 'content-type': 'application/json', accept: 'text/event-stream' }, headers());
      var res = await fetch(url, { method: 'POST', headers: h, body: text });
      if ((res.headers.get('content-type') || '').indexOf('text/event-stream') < 0) return await failed(res);
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
