/**
 * The replica chat page's own script, as chatgpt.com's app behaves: it
 * reads its session from `GET /api/auth/session` (`{}` signed out: the page
 * offers Log in / Sign up and opens the login dialog on send), asks
 * `POST /backend-api/sentinel/chat-requirements` for its token and
 * proof-of-work challenge, computes the proof (a nonce whose SHA-256 with
 * the seed is at most the difficulty; the real page's is SHA3-512 over its
 * own config), sends `POST /backend-api/f/conversation` with the
 * `openai-sentinel-*` headers, and renders the stream in either encoding:
 * the thoughts, the Sources opener of the sources panel, the answer with
 * its citation chips; or the dialog / toast a failure brings (a Cloudflare
 * challenge: the Turnstile dialog). Elements are found by the replica's own
 * `data-r` hooks, so a drifted build changes only what a driver sees. A
 * plain string, so no loader rewrites it.
 */
import { DATA_R_KIT, SCRIPT_KIT } from '../common/page-kit.js';

export const PAGE_SCRIPT = String.raw`
(function(){
${SCRIPT_KIT}${DATA_R_KIT}
  var state = { think: false, search: false, menu: null };
  var token = null, conversationId = null, parentId = null, busy = false;


  function pill(key, label){
    return '<button type="button" class="composer-pill" aria-pressed="' + state[key] + '" data-r="' + key + '" data-mode-control="' +
      (key === 'think' ? 'thinking' : 'search') + '" data-testid="composer-' + (key === 'think' ? 'reasoning' : 'search') + '-pill">' + label + '</button>';
  }
  // The 2025-2026 build: a "+" tools menu whose items show as removable pills once chosen.
  var MENU = document.body.getAttribute('data-widgets') === 'tools_menu';
  function item(key, label){
    return '<div role="menuitemcheckbox" tabindex="0" aria-checked="' + state[key] + '" data-r="' + key + '">' + label + '</div>';
  }
  function chosen(key, label){
    return state[key] ? '<button type="button" class="composer-pill" aria-pressed="true" data-r="' + key + '">' + label + '</button>' : '';
  }
  function modeControls(){
    if (!MENU) return pill('think', 'Think longer') + pill('search', 'Web search');
    var open = state.menu === 'tools';
    return '<span style="position:relative"><button type="button" class="composer-plus" aria-label="Add files and more" aria-haspopup="menu" aria-expanded="' + open +
      '" data-r="tools-opener">+</button>' + (open ? '<div class="model-menu" role="menu">' + item('think', 'Think longer') + item('search', 'Web search') + '</div>' : '') +
      '</span>' + chosen('think', 'Think') + chosen('search', 'Search');
  }
  function renderTools(){
    $('tools').innerHTML = modeControls() +
      '<button type="button" class="composer-submit" aria-label="Send prompt" data-testid="send-button" data-r="send"' + (busy ? ' hidden' : '') + '>↑</button>' +
      '<button type="button" class="composer-stop" aria-label="Stop streaming" data-testid="stop-button" data-r="stop"' + (busy ? '' : ' hidden') + '>■</button>';
  }
  function renderModel(){
    var open = state.menu === 'model';
    $('model').innerHTML = '<button type="button" class="model-switcher" aria-haspopup="menu" aria-expanded="' + open +
      '" data-testid="model-switcher-dropdown-button" data-r="model-picker">ChatGPT 5</button>' +
      (open ? '<div class="model-menu" role="menu"><div role="menuitemradio" aria-checked="true" tabindex="0" data-r="model-item">Auto</div>' +
        '<div role="menuitemradio" aria-checked="false" tabindex="0" data-r="model-item">Instant</div></div>' : '');
  }
  onHook('tools', function(r){
    if (r === 'think' || r === 'search') { state[r] = !state[r]; state.menu = null; }
    else if (r === 'tools-opener') state.menu = state.menu === 'tools' ? null : 'tools';
    else if (r === 'send') return submit();
    else return;
    renderTools();
  });
  onHook('model', function(r){
    if (r === 'model-picker') state.menu = state.menu ? null : 'model';
    else if (r === 'model-item') state.menu = null;
    renderModel();
  });

  exposeModes({ thinking: 'Think longer', search: 'Web search' }, ['GPT-5 Instant', 'GPT-5 Thinking']);

  function renderHeader(){
    $('header').innerHTML = token
      ? '<div class="profile" aria-label="Open profile menu">Replica User</div>'
      : '<button type="button" class="btn-login" data-r="login-btn">Log in</button><button type="button" class="btn-signup" data-r="signup-btn">Sign up for free</button>';
    ['login-btn', 'signup-btn'].forEach(function(n){ var b = $(n); if (b) b.addEventListener('click', function(){ show('login'); }); });
  }

  fetch('/api/auth/session').then(function(r){ return r.json(); }).then(function(s){
    token = s && s.accessToken ? s.accessToken : null;
    renderHeader(); $('loading').remove(); $('composer').hidden = false;
  });
  renderTools();
  renderModel();

  var editor = $('editor');
  sendOnEnter(editor, submit);
  onNewChat(function(){ return busy; }, function(){
    conversationId = null; parentId = null;
    $('thread').innerHTML = '';
    $('sources').hidden = true;
    history.replaceState(null, '', '/');
  });

  // The page's own proof of work: the first nonce whose hash with the seed is at most the difficulty.
  async function proofOf(pow){
    for (var n = 0; n < 1e6; n++) {
      var answer = btoa(JSON.stringify([n, navigator.hardwareConcurrency || 1]));
      var h = await sha256Hex(pow.seed + answer);
      if (h.slice(0, pow.difficulty.length) <= pow.difficulty) return 'gAAAAAB' + answer;
    }
    throw new Error('no proof');
  }

  function newTurn(prompt){
    var q = document.createElement('div');
    q.setAttribute('data-message-author-role', 'user');
    q.className = 'user-turn';
    q.textContent = prompt;
    var a = document.createElement('div');
    a.setAttribute('data-message-author-role', 'assistant');
    a.className = 'assistant-turn';
    a.innerHTML = '<details class="thoughts" data-r="thoughts" hidden><summary>Thought</summary><div data-r="thoughts-text"></div></details>' +
      '<div class="markdown prose" data-r="answer"></div>' +
      '<button type="button" class="sources-btn" data-testid="sources-button" data-r="sources-opener" hidden>Sources</button>';
    $('thread').appendChild(q);
    $('thread').appendChild(a);
    return a;
  }
  function markdown(text, cite){
    var inline = function(s){
      return esc(s).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\uE200cite((?:\uE202[^\uE200-\uE202]+)+)\uE201/g, function(m, ids){ return cite.run(m, ids); })
        .replace(/【(\d+)(?::\d+)?†[^】]*】/g, function(m, k, offset){ return cite.old(k); });
    };
    return markdownLines(text, inline);
  }
  function openSources(sources){
    var panel = $('sources');
    panel.innerHTML = '<h3>Sources</h3>' + sources.map(function(s, i){
      return '<a class="source-card" href="' + esc(s.url) + '" target="_blank"><span>' + (i + 1) + '</span> <span>' +
        esc(s.site || '') + '</span><h4>' + esc(s.title) + '</h4></a>';
    }).join('');
    panel.hidden = false;
  }

  // What the stream's messages show, whichever encoding carried them.
  function view(messages, extra){
    var sources = [], thoughts = [], answer = null, listed = [];
    var add = function(s){ if (s && s.url && !sources.some(function(o){ return o.url === s.url; })) sources.push(s); };
    messages.forEach(function(m){
      var md = m.metadata || {}, c = m.content || {};
      (md.search_result_groups || []).forEach(function(g){ (g.entries || [g]).forEach(function(e){
        add({ url: e.url, title: e.title, site: e.attribution, ref: e.ref_id ? 'turn' + e.ref_id.turn_index + e.ref_id.ref_type + e.ref_id.ref_index : null }); }); });
      ((md._cite_metadata || {}).metadata_list || []).forEach(function(e){ listed.push(e); add({ url: e.url, title: e.title }); });
      if (c.content_type === 'thoughts') (c.thoughts || []).forEach(function(t){ thoughts.push(t.content || ''); });
      if (m.author && m.author.role === 'assistant' && c.content_type === 'text' && (m.recipient || 'all') === 'all') answer = m;
    });
    var text = extra;
    if (answer) {
      var c = answer.content;
      text = extra + (c.parts ? c.parts.join('') : (c.text || ''));
    }
    var refs = answer ? ((answer.metadata || {}).content_references || []) : [];
    var citations = answer ? ((answer.metadata || {}).citations || []) : [];
    var placeOf = function(url){ var i = sources.findIndex(function(s){ return s.url === url; }); return i < 0 ? null : i + 1; };
    var chip = function(ns){ return ns.filter(function(n){ return n; }).map(function(n){ return '<sup class="citation-pill">' + n + '</sup>'; }).join(''); };
    var cite = {
      run: function(m, ids){
        var r = refs.find(function(x){ return x.matched_text === m; });
        if (r) return chip((r.items || []).map(function(i){ return placeOf(i.url); }));
        return chip(ids.split('\uE202').filter(Boolean).map(function(id){
          var i = sources.findIndex(function(s){ return s.ref === id; }); return i < 0 ? null : i + 1; }));
      },
      old: function(k){
        var e = listed[Number(k)];
        var byList = citations.find(function(x){ return x.metadata && e && x.metadata.url === e.url; });
        return chip([e ? placeOf(e.url) : (byList ? placeOf(byList.metadata.url) : null)]);
      },
    };
    return { text: text, thinking: thoughts.join('\n'), sources: sources, cite: cite };
  }
  function render(turn, v){
    var box = $('thoughts', turn);
    box.hidden = !v.thinking; $('thoughts-text', turn).textContent = v.thinking;
    var opener = $('sources-opener', turn);
    opener.hidden = v.sources.length === 0;
    opener.onclick = function(){ openSources(v.sources); };
    $('answer', turn).innerHTML = markdown(v.text, v.cite);
  }

  // The v1 operations, as the site's own client applies them.
  function applyOp(root, op){
    if (op.o === 'patch') { op.v.forEach(function(s){ root = applyOp(root, s); }); return root; }
    if (op.p === '') return JSON.parse(JSON.stringify(op.v));
    var keys = op.p.slice(1).split('/'), at = root;
    for (var i = 0; i < keys.length - 1; i++) {
      if (at[keys[i]] == null) at[keys[i]] = /^\d+$/.test(keys[i + 1]) ? [] : {};
      at = at[keys[i]];
    }
    var k = keys[keys.length - 1];
    if (op.o === 'append') {
      if (Array.isArray(at[k])) at[k] = at[k].concat(op.v);
      else at[k] = (at[k] || '') + op.v;
    } else if (op.o === 'truncate') at[k] = at[k].slice(0, op.v);
    else if (op.o === 'remove') delete at[k];
    else at[k] = JSON.parse(JSON.stringify(op.v));
    return root;
  }

  async function readStream(res, turn){
    var done = false;
    var env = {}, last = null, order = [], byId = {}, extra = '', blocked = false;
    var keep = function(m){ if (!m) return; var id = m.id || ('#' + order.length); if (!byId[id]) order.push(id); byId[id] = m; };
    await readEvents(res, function(ev, data){
      if (done || !data) return;
      if (data === '[DONE]') { done = true; return; }
      var f = JSON.parse(data);
      if (ev === 'delta_encoding') return;
      if (f.conversation_id && !conversationId) {
        conversationId = f.conversation_id;
        history.replaceState(null, '', '/c/' + conversationId);
      }
      if (ev === 'delta' || (f.type === undefined && f.message === undefined && 'v' in f)) {
        var op = { p: f.p !== undefined ? f.p : last.p, o: f.o !== undefined ? f.o : last.o, v: f.v };
        if (op.o !== 'patch') last = op;
        env = applyOp(env, op);
        keep(env.message);
      } else if (f.type === 'message_stream_complete') done = true;
      else if (f.type === 'moderation' && f.moderation_response && f.moderation_response.blocked) blocked = true;
      else if (f.type === 'text_delta_v2') extra += f.text || '';
      else if (f.message) keep(f.message);
      var v = view(order.map(function(id){ return byId[id]; }), extra);
      render(turn, v);
      if (blocked) $('answer', turn).textContent = 'This content may violate our usage policies.';
      var answer = order.map(function(id){ return byId[id]; }).filter(function(m){ return m.author && m.author.role === 'assistant'; }).pop();
      if (answer) parentId = answer.id;
    });
  }

  async function submit(){
    var prompt = editor.innerText.trim();
    if (busy || !prompt) return;
    if (!token) return show('login');
    busy = true;
    renderTools();
    editor.innerHTML = '';
    $('toast').hidden = true;
    var turn = newTurn(prompt);
    try {
      var auth = { authorization: 'Bearer ' + token, 'content-type': 'application/json', 'oai-device-id': 'replica-device' };
      var req = await fetch('/backend-api/sentinel/chat-requirements', { method: 'POST', headers: auth, body: JSON.stringify({ p: 'gAAAAAC' + btoa('replica') }) });
      if (req.status === 401) { token = null; renderHeader(); show('login'); return; }
      var need = await req.json();
      var headers = Object.assign({}, auth, { accept: 'text/event-stream', 'openai-sentinel-chat-requirements-token': need.token });
      if (need.proofofwork && need.proofofwork.required) headers['openai-sentinel-proof-token'] = await proofOf(need.proofofwork);
      var hints = [];
      if (state.think) hints.push('reason');
      if (state.search) hints.push('search');
      var body = { action: 'next', messages: [{ id: crypto.randomUUID(), author: { role: 'user' }, create_time: Date.now() / 1000,
        content: { content_type: 'text', parts: [prompt] }, metadata: { system_hints: hints } }],
        parent_message_id: parentId || 'client-created-root', model: 'auto', timezone_offset_min: new Date().getTimezoneOffset(),
        system_hints: hints, supports_buffering: true, supported_encodings: ['v1'], conversation_mode: { kind: 'primary_assistant' } };
      if (conversationId) body.conversation_id = conversationId;
      var path = /#replica:old_endpoint\b/.test(prompt) ? '/backend-api/conversation' : '/backend-api/f/conversation';
      var res = await fetch(path, { method: 'POST', headers: headers, body: JSON.stringify(body) });
      if (res.status === 401) { token = null; renderHeader(); show('login'); return; }
      var type = res.headers.get('content-type') || '';
      if (type.indexOf('text/html') >= 0) { show('challenge'); return; }
      if (type.indexOf('text/event-stream') < 0) {
        var err = await res.json().catch(function(){ return null; });
        var d = err && err.detail;
        toast((d && (d.message || d)) || 'Something went wrong.');
        return;
      }
      await readStream(res, turn);
    } catch (e) {
      toast('Network error. Please try again.');
    } finally {
      busy = false;
      renderTools();
    }
  }
})();
`;
