/**
 * The replica chat page's own script, as Gemini's app behaves: it reads its
 * `SNlM0e` token from `WIZ_global_data` (absent: the page is signed out and
 * offers Sign in), posts `StreamGenerate` with the form body `f.req=…&at=…`,
 * `X-Same-Domain: 1` and the chosen model in `x-goog-ext-525001261-jspb`,
 * reads the `)]}'`-guarded, length-prefixed chunks as they arrive and
 * renders each snapshot in place of the last: the thoughts, the answer with
 * its citation chips, the sources list; or the dialog / toast a failure
 * brings. Its reader finds the candidate by shape, like the driver's, since
 * the replica serves several layouts. Elements are found by the replica's
 * own `data-r` hooks, so a drifted build changes only what a driver sees.
 * A plain string, so no loader rewrites it.
 */
import { DATA_R_KIT, SCRIPT_KIT } from '../common/page-kit.js';
import { MODEL_IDS } from './models.js';

export const PAGE_SCRIPT = String.raw`
(function(){
${SCRIPT_KIT}${DATA_R_KIT}
  var WIZ = window.WIZ_global_data || {};
  var AT = WIZ.SNlM0e || null;
  var MODELS = ${JSON.stringify(MODEL_IDS)};
  var state = { think: false, search: false, menu: null };
  var ids = { cid: '', rid: '', rcid: '' }, busy = false, reqid = 100000 + Math.floor(Math.random() * 9000);


  // Drawn once and updated in place: a build's own widgets (a drift) may sit beside them.
  $('tools').innerHTML =
    '<span class="menu-anchor"><button type="button" class="model-picker" aria-haspopup="menu" aria-expanded="false" data-r="model-picker" data-mode-control="thinking">Fast</button>' +
    '<div class="model-menu" role="menu" data-r="model-menu" hidden>' +
    '<button type="button" role="menuitemradio" aria-checked="true" data-r="model-item" data-model="Fast">Fast</button>' +
    '<button type="button" role="menuitemradio" aria-checked="false" data-r="model-item" data-model="Thinking">Thinking</button></div></span>' +
    '<span class="menu-anchor"><button type="button" class="toolbox-drawer-button" aria-haspopup="menu" aria-expanded="false" data-r="tools-button">Tools</button>' +
    '<div class="tools-menu" role="menu" data-r="tools-menu" hidden>' +
    '<button type="button" role="menuitemcheckbox" aria-checked="false" data-r="search" data-mode-control="search">Google Search</button></div></span>' +
    '<button type="button" class="send-button" aria-label="Send message" data-r="send">➤</button>' +
    '<button type="button" class="stop-button" aria-label="Stop response" data-r="stop" hidden>■</button>';
  function renderTools(){
    var model = state.menu === 'model', tools = state.menu === 'tools';
    $('model-picker').textContent = state.think ? 'Thinking' : 'Fast';
    $('model-picker').setAttribute('aria-expanded', String(model));
    $('model-menu').hidden = !model;
    Array.prototype.forEach.call(document.querySelectorAll('[data-r="model-item"]'), function(el){
      el.setAttribute('aria-checked', String((el.getAttribute('data-model') === 'Thinking') === state.think));
    });
    $('tools-button').setAttribute('aria-expanded', String(tools));
    $('tools-menu').hidden = !tools;
    $('search').setAttribute('aria-checked', String(state.search));
    $('send').hidden = busy;
    $('stop').hidden = !busy;
  }
  onHook('tools', function(r, el){
    if (r === 'search') { state.search = !state.search; state.menu = null; }
    else if (r === 'tools-button') state.menu = state.menu === 'tools' ? null : 'tools';
    else if (r === 'model-picker') state.menu = state.menu === 'model' ? null : 'model';
    else if (r === 'model-item') { state.think = el.getAttribute('data-model') === 'Thinking'; state.menu = null; }
    else if (r === 'send') return submit();
    else return;
    renderTools();
  });

  exposeModes({ thinking: 'Thinking', search: 'Google Search' }, ['2.5 Flash', '2.5 Pro (Thinking)'], {
    account: function(){ return WIZ.W3Yyqf || ''; },
  });

  $('header').innerHTML = AT
    ? '<button type="button" class="account-button" aria-label="Google Account: Replica User">R</button>'
    : '<a class="sign-in-button" href="/ServiceLogin?continue=' + encodeURIComponent(location.href) + '">Sign in</a>';
  renderTools();

  var editor = $('editor');
  sendOnEnter(editor, submit);
  onNewChat(function(){ return busy; }, function(){
    ids = { cid: '', rid: '', rcid: '' };
    $('list').innerHTML = '';
    history.replaceState(null, '', '/app');
  });

  // --- the candidate by shape: the list whose first item is rc_… ---
  function find(v, test, depth){
    if (!Array.isArray(v) || depth > 6) return null;
    if (test(v)) return v;
    for (var i = 0; i < v.length; i++) { var hit = find(v[i], test, depth + 1); if (hit) return hit; }
    return null;
  }
  var CITE = /\[cite:\s*([\d,\s]+)\]/;
  function sourceIn(entry){
    var a = find(entry, function(x){ return x.some(function(y, i){ return typeof y === 'string' && /^https?:/.test(y) && typeof x[i + 1] === 'string' && !/^https?:/.test(x[i + 1]); }); }, 0);
    if (!a) return null;
    var i = a.findIndex(function(y, j){ return typeof y === 'string' && /^https?:/.test(y) && typeof a[j + 1] === 'string' && !/^https?:/.test(a[j + 1]); });
    return { url: a[i], title: a[i + 1], favicon: typeof a[i - 1] === 'string' ? a[i - 1] : '' };
  }
  function snapshot(payload){
    var c = find(payload, function(x){ return typeof x[0] === 'string' && /^rc_/.test(x[0]); }, 0);
    if (!c) return null;
    var conv = find(payload, function(x){ return typeof x[0] === 'string' && /^c_/.test(x[0]); }, 0);
    var s = { text: null, thinking: '', sources: [], rcid: c[0], cid: conv ? conv[0] : '', rid: conv ? conv[1] : '' };
    for (var i = 1; i < c.length; i++) {
      var x = c[i];
      if (x && !Array.isArray(x) && typeof x === 'object' && typeof x.markdown === 'string' && s.text === null) s.text = x.markdown;
      else if (!Array.isArray(x) || x.length === 0) continue;
      else if (s.text === null && typeof x[0] === 'string') s.text = x[0];
      else if (x.every(function(g){ return Array.isArray(g) && Array.isArray(g[0]) && CITE.test(g[0][0]); })) {
        var byN = {};
        x.forEach(function(g){ (CITE.exec(g[0][0])[1].match(/\d+/g) || []).forEach(function(n, k){
          var src = sourceIn(g[1][k]); if (src && !byN[n]) byN[n] = src; }); });
        s.sources = Object.keys(byN).sort(function(a, b){ return a - b; }).map(function(n){ byN[n].n = Number(n); return byN[n]; });
      } else if (Array.isArray(x[0]) && typeof x[0][0] === 'string' && !/^https?:/.test(x[0][0])) s.thinking = x[0][0];
      else if (x.every(function(e){ return sourceIn(e); })) s.sources = x.map(function(e, k){ var src = sourceIn(e); src.n = k + 1; return src; });
    }
    s.text = s.text || '';
    return s;
  }

  function newTurn(prompt){
    var q = document.createElement('user-query');
    q.className = 'user-query';
    q.textContent = prompt;
    var a = document.createElement('model-response');
    a.innerHTML = '<model-thoughts data-r="thoughts" hidden><span class="thoughts-header">Show thinking</span>' +
      '<div class="thoughts-body" data-thoughts-body data-r="thoughts-body"></div></model-thoughts>' +
      '<message-content><div class="markdown markdown-main-panel" data-r="answer"></div></message-content>' +
      '<sources-list data-r="sources" hidden></sources-list>';
    $('list').appendChild(q);
    $('list').appendChild(a);
    return a;
  }
  function withChips(text){
    return esc(text).replace(/\[cite:\s*([\d,\s]+)\]/g, function(m, list){
      return (list.match(/\d+/g) || []).map(function(n){
        return '<sup class="citation-chip" data-turn-source-index="' + n + '">' + n + '</sup>'; }).join('');
    });
  }
  function render(turn, s, prefix){
    var thoughts = $('thoughts', turn);
    thoughts.hidden = !s.thinking;
    $('thoughts-body', turn).textContent = s.thinking;
    $('answer', turn).innerHTML = withChips(prefix + s.text);
    var sources = $('sources', turn);
    sources.hidden = s.sources.length === 0;
    sources.innerHTML = '<div class="sources-title">Sources</div>' + s.sources.map(function(x){
      return '<a class="source-card" href="' + esc(x.url) + '" target="_blank" aria-label="' + esc(x.title) + '" data-turn-source-index="' + x.n + '">' +
        '<img class="favicon" alt="" src="' + esc(x.favicon) + '"><span>' + esc(x.title) + '</span></a>';
    }).join('');
  }
  function showError(code){
    if (code === 1037) toast("You've reached your limit for now. Try again later.");
    else toast('Something went wrong (' + code + ')');
  }

  async function readStream(res, turn){
    var reader = res.body.getReader(), dec = new TextDecoder(), buf = '', guard = false, done = false, prefix = '', last = null;
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) break;
      buf += dec.decode(chunk.value, { stream: true });
      if (!guard) { if (buf.length < 4) continue; if (buf.indexOf(")]}'") === 0) buf = buf.slice(4); guard = true; }
      for (;;) {
        var m = /^\s*(\d+)\n/.exec(buf);
        if (!m) break;
        var from = m[0].length - 1, len = Number(m[1]);
        if (buf.length < from + len) break;
        var envelopes = JSON.parse(buf.slice(from, from + len));
        buf = buf.slice(from + len);
        envelopes.forEach(function(e){
          if (done) return;
          if (e[0] === 'e') { done = true; return; }
          if (e[0] === 'wrb.rt') { prefix += JSON.parse(e[2])[0][0]; if (last) render(turn, last, prefix); return; }
          if (e[0] !== 'wrb.fr') return;
          if (typeof e[2] !== 'string') {
            var code = JSON.stringify(e.slice(3)).match(/\d{4}/);
            showError(code ? Number(code[0]) : 0);
            return;
          }
          var s = snapshot(JSON.parse(e[2]));
          if (!s) return;
          ids = { cid: s.cid || ids.cid, rid: s.rid || ids.rid, rcid: s.rcid };
          last = s;
          render(turn, s, prefix);
        });
      }
    }
  }

  async function submit(){
    var prompt = editor.innerText.trim();
    if (busy || !prompt) return;
    if (!AT) { location.href = '/ServiceLogin?continue=' + encodeURIComponent(location.href); return; }
    busy = true;
    state.menu = null;
    renderTools();
    editor.innerHTML = '';
    $('toast').hidden = true;
    var turn = newTurn(prompt);
    try {
      var inner = [[prompt, 0, null, null, null, null, 0], ['en'], [ids.cid, ids.rid, ids.rcid], null, null, null, [1], 0, null,
        state.search ? [['google_search']] : null];
      var body = 'f.req=' + encodeURIComponent(JSON.stringify([null, JSON.stringify(inner)])) + '&at=' + encodeURIComponent(AT) + '&';
      var url = '/_/BardChatUi/data/assistant.lamda.BardFrontendService/StreamGenerate?bl=' + encodeURIComponent(WIZ.cfb2h || '') +
        '&f.sid=' + encodeURIComponent(WIZ.FdrFJe || '') + '&hl=en&_reqid=' + (reqid += 100000) + '&rt=c';
      var res = await fetch(url, { method: 'POST', body: body, headers: {
        'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
        'x-same-domain': '1',
        'x-goog-ext-525001261-jspb': JSON.stringify([1, null, null, null, state.think ? MODELS.thinking : MODELS.fast]),
      } });
      if (res.status !== 200) {
        var text = await res.text();
        if (/unusual traffic/i.test(text)) $('sorry').hidden = false;
        else if (res.status === 401) toast('Your session has expired. Sign in again to continue.');
        else toast('Something went wrong. Try again later.');
        return;
      }
      await readStream(res, turn);
    } catch (e) {
      toast('Network error, try again.');
    } finally {
      busy = false;
      renderTools();
    }
  }
})();
`;
