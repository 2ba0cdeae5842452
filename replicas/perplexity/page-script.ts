/**
 * The replica page's own script, as Perplexity's app behaves: it reads the
 * session (`GET /api/auth/session`, NextAuth's `{user}`; a logged-out page
 * shows Log in and opens the sign-in dialog on submit), draws the composer's
 * controls (the model picker, the sources menu with its Web switch), sends
 * `POST /rest/sse/perplexity_ask` with the page's `params` and renders the
 * SSE frames as they arrive: each block's value kept and patched by its
 * `diff_block`s (or replaced whole in the older format), the plan's steps,
 * the answer's markdown with its citation chips, the N sources opener of
 * the sources panel; or the dialog a failure brings (a Cloudflare challenge,
 * the sign-in dialog, a limit toast). Elements are found by the replica's
 * own `data-r` hooks, so a drifted build changes only what a driver sees. A
 * plain string, so no loader rewrites it.
 */
import { DATA_R_KIT, SCRIPT_KIT } from '../common/page-kit.js';

export const PAGE_SCRIPT = String.raw`
(function(){
${SCRIPT_KIT}${DATA_R_KIT}
  var MODELS = [['Best', 'pplx_pro'], ['Sonar', 'experimental'], ['Claude Sonnet 4.5', 'claude45sonnet'],
    ['Claude Sonnet 4.5 Thinking', 'claude45sonnetthinking'], ['GPT-5 Thinking', 'gpt5_thinking']];
  var state = { model: 0, search: true, menu: null };
  var user = null, lastBackend = null, busy = false, answers = 0;

  var thinking = function(){ return /Thinking/.test(MODELS[state.model][0]); };

  function renderTools(){
    var m = state.menu;
    // The wrapper carries the mode hook: a redrawn control goes beside the tools row, not in it.
    var picker = '<span class="pick" data-mode-control="thinking"><button type="button" class="pill" aria-haspopup="menu" aria-expanded="' + (m === 'model') +
      '" data-r="model-picker">' + MODELS[state.model][0] + '</button>' +
      (m === 'model' ? '<div class="menu" role="menu">' + MODELS.map(function(it, i){
        return '<button type="button" role="menuitemradio" aria-checked="' + (i === state.model) + '" data-r="model-item" data-i="' + i + '">' + it[0] + '</button>';
      }).join('') + '</div>' : '') + '</span>';
    var sources = '<span class="pick"><button type="button" class="pill" aria-label="Sources" aria-haspopup="menu" aria-expanded="' + (m === 'sources') +
      '" data-r="sources-picker">&#127760;</button>' +
      (m === 'sources' ? '<div class="menu" role="menu"><div class="row"><span>Web</span>' +
        '<button type="button" role="switch" aria-label="Web" aria-checked="' + state.search + '" data-r="web" data-mode-control="search"></button></div>' +
        '<div class="row"><span>Academic</span><button type="button" role="switch" aria-label="Academic" aria-checked="false" data-r="academic"></button></div></div>' : '') + '</span>';
    $('tools').innerHTML = picker + sources +
      '<button type="button" class="submit" aria-label="Submit" data-r="send"' + (busy ? ' hidden' : '') + '>&#8593;</button>' +
      '<button type="button" class="submit stop" aria-label="Stop" data-r="stop"' + (busy ? '' : ' hidden') + '>&#9632;</button>';
  }
  onHook('tools', function(r, el){
    if (r === 'model-picker') state.menu = state.menu === 'model' ? null : 'model';
    else if (r === 'sources-picker') state.menu = state.menu === 'sources' ? null : 'sources';
    else if (r === 'model-item') { state.model = Number(el.getAttribute('data-i')); state.menu = null; }
    else if (r === 'web') state.search = !state.search;
    else if (r === 'send') return submit();
    else return;
    renderTools();
  });

  // Thinking is a model here, not a switch.
  exposeModes({ thinking: 'Reasoning', search: 'Web' }, ['Sonar', 'Sonar Reasoning Pro'], {
    get: function(){ return { thinking: thinking(), search: state.search }; },
    set: function(name, on){
      if (name === 'thinking') state.model = on ? 3 : 0; else state.search = on;
      renderTools();
    },
  });

  function renderHeader(){
    $('header').innerHTML = user
      ? '<div class="user">' + esc(user.name) + '</div>'
      : '<button type="button" class="login" data-r="login-btn">Log in</button>';
    var b = $('login-btn');
    if (b) b.addEventListener('click', function(){ show('login'); });
  }

  fetch('/api/auth/session').then(function(r){ return r.json(); }).then(function(s){
    user = s && s.user ? s.user : null;
    renderHeader(); $('loading').remove(); $('input-box').hidden = false;
  });
  renderTools();

  var editor = $('editor');
  sendOnEnter(editor, submit);
  onNewChat(function(){ return busy; }, function(){
    lastBackend = null;
    $('list').innerHTML = '';
    $('refs').hidden = true;
    history.replaceState(null, '', '/');
  });

  // JSON patches (RFC 6902) on a block's value, as the page's own store applies them.
  function patch(value, p){
    var keys = p.path === '' ? [] : p.path.slice(1).split('/');
    if (keys.length === 0) return p.op === 'remove' ? undefined : JSON.parse(JSON.stringify(p.value));
    var root = value && typeof value === 'object' ? value : {};
    var at = root;
    keys.slice(0, -1).forEach(function(k){
      if (!at[k] || typeof at[k] !== 'object') at[k] = /^\d+$/.test(k) ? [] : {};
      at = at[k];
    });
    var last = keys[keys.length - 1];
    if (Array.isArray(at)) {
      var i = last === '-' ? at.length : Number(last);
      if (p.op === 'add') at.splice(i, 0, p.value); else if (p.op === 'replace') at[i] = p.value; else at.splice(i, 1);
    } else if (p.op === 'remove') delete at[last]; else at[last] = p.value;
    return root;
  }

  function newTurn(prompt){
    var q = document.createElement('h1');
    q.className = 'query';
    q.textContent = prompt;
    var a = document.createElement('div');
    a.className = 'turn';
    answers++;
    a.innerHTML = '<ol class="steps" data-r="steps" hidden></ol>' +
      '<button type="button" class="sources-opener" data-r="refs-opener" hidden></button>' +
      '<div class="prose" id="markdown-content-' + answers + '" data-r="answer"></div>' +
      '<div class="related" data-r="related" hidden></div>';
    $('list').appendChild(q);
    $('list').appendChild(a);
    return a;
  }
  function markdown(text){
    var inline = function(s){
      return esc(s).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\[(?:web:)?(\d+)\]/g, '<span class="citation">$1</span>');
    };
    return markdownLines(text, inline);
  }
  function openRefs(results){
    var refs = $('refs');
    refs.innerHTML = '<h3>Sources</h3>' + results.map(function(r, i){
      return '<a class="source" href="' + esc(r.url) + '" target="_blank"><span>' + (i + 1) + '</span> <span>' +
        esc((r.meta_data || {}).domain_name || '') + '</span><h4>' + esc(r.name) + '</h4></a>';
    }).join('');
    refs.hidden = false;
  }
  function render(turn, blocks){
    var plan = blocks.plan_block || {};
    var goals = (plan.goals || []).map(function(g){ return g.description || ''; }).filter(Boolean);
    var steps = $('steps', turn);
    steps.hidden = goals.length === 0;
    steps.innerHTML = goals.map(function(g){ return '<li>' + esc(g) + '</li>'; }).join('');
    var results = (blocks.web_result_block || blocks.sources_mode_block || {}).web_results || [];
    var opener = $('refs-opener', turn);
    opener.hidden = results.length === 0;
    opener.textContent = results.length + ' sources';
    opener.onclick = function(){ openRefs(results); };
    var md = blocks.markdown_block || {};
    var text = md.answer || (md.chunks || md.contents || []).join('');
    var rich = (blocks.rich_markdown_block || {}).text || '';
    $('answer', turn).innerHTML = markdown(rich + text);
  }

  async function readStream(res, turn){
    var done = false, blocks = {};
    await readEvents(res, function(name, data){
      if (done || name !== 'message' || !data) return;
      var f = JSON.parse(data);
      if (f.backend_uuid) lastBackend = f.backend_uuid;
      if (f.status === 'FAILED') { toast(f.text || 'Something went wrong'); done = true; return; }
      if (f.status === 'BLOCKED') { $('answer', turn).textContent = f.text || ''; done = true; return; }
      (f.blocks || []).forEach(function(b){
        if (b.diff_block) {
          var field = b.diff_block.field;
          b.diff_block.patches.forEach(function(p){ blocks[field] = patch(blocks[field], p); });
        } else Object.keys(b).forEach(function(k){ if (/_block$/.test(k)) blocks[k] = b[k]; });
      });
      render(turn, blocks);
      if (Array.isArray(f.related_queries)) {
        var rel = $('related', turn);
        rel.innerHTML = '<h3>Related</h3>' + f.related_queries.map(function(q){ return '<div>' + esc(q) + '</div>'; }).join('');
        rel.hidden = false;
      }
      if (f.final_sse_message || f.final) done = true;
    });
  }

  async function submit(){
    var prompt = editor.value.trim();
    if (busy || !prompt) return;
    if (!user) return show('login');
    busy = true;
    state.menu = null;
    renderTools();
    editor.value = '';
    $('toast').hidden = true;
    var turn = newTurn(prompt);
    try {
      var params = { attachments: [], language: 'en-US', timezone: 'UTC',
        search_focus: state.search ? 'internet' : 'writing', sources: state.search ? ['web'] : [],
        frontend_uuid: crypto.randomUUID(), mode: 'copilot', model_preference: MODELS[state.model][1],
        last_backend_uuid: lastBackend, is_related_query: false, prompt_source: 'user',
        query_source: lastBackend ? 'followup' : 'home', use_schematized_api: true,
        send_back_text_in_streaming_api: false, supported_block_use_cases: ['answer_modes', 'diff_blocks'],
        version: '2.18' };
      var res = await fetch('/rest/sse/perplexity_ask', { method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ params: params, query_str: prompt }) });
      if ((res.headers.get('content-type') || '').indexOf('text/event-stream') < 0) {
        var body = await res.text();
        if (/Just a moment/.test(body)) show('challenge');
        else if (res.status === 401) { user = null; renderHeader(); show('login'); }
        else toast((function(){ try { return JSON.parse(body).detail; } catch (e) { return ''; } })() || 'Something went wrong');
        return;
      }
      await readStream(res, turn);
      history.replaceState(null, '', '/search/' + encodeURIComponent(prompt.slice(0, 24).replace(/\s+/g, '-')));
    } catch (e) {
      toast('Network error, try again');
    } finally {
      busy = false;
      renderTools();
    }
  }
})();
`;
