/**
 * The sandbox's consumer chat site: one self-contained page (HTML + CSS + JS,
 * no external resources) and a login wall.
 *
 * DOM contract the web driver relies on:
 * - `body[data-state]`: `idle` → `streaming` → `done` | `error` | `login`;
 *   `body[data-turn]` counts sends. On `error`: `body[data-error-status]`
 *   (HTTP status, 0 for a broken stream), `[data-retry-after]`, `[data-error]`.
 * - `#prompt` textarea, `#toggle-reasoning` / `#toggle-search` checkboxes, `#send`.
 * - `#answer[data-markdown]` (the exact Markdown; the element shows it rendered).
 * - `#reasoning` (hidden when absent) with `.reasoning-summary` and
 *   `.reasoning-content[data-raw]`.
 * - `#references li[data-index][data-cited]` with `a.ref-title[href]`,
 *   `.ref-site`, `.ref-icon[data-icon]`.
 * - `#related li` (one question each), `#media img[src][alt]`.
 */

const STYLE = String.raw`
:root{--bg:#f7f7f8;--panel:#fff;--ink:#1f2328;--muted:#6b7280;--line:#e5e7eb;--accent:#5b5bd6;--accent-ink:#fff;--soft:#eef0ff}
*{box-sizing:border-box}
[hidden]{display:none !important}
html,body{min-height:100%;margin:0}
body{font:15px/1.6 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","PingFang SC",sans-serif;color:var(--ink);background:var(--bg);display:flex;min-height:100vh}
aside{width:248px;background:#171923;color:#e2e8f0;display:flex;flex-direction:column;padding:16px 12px;gap:8px;flex-shrink:0}
aside .logo{display:flex;align-items:center;gap:10px;font-weight:700;font-size:17px;padding:4px 8px 12px}
aside .logo i{width:28px;height:28px;border-radius:8px;background:linear-gradient(135deg,#7c7cf0,#36c2b4);display:inline-block}
aside button.new{background:#2d3148;color:#fff;border:0;border-radius:10px;padding:10px 12px;text-align:left;font:inherit;cursor:pointer}
aside .hist{font-size:13px;color:#a0aec0;padding:8px;border-radius:8px}
aside .hist.active{background:#262a3d;color:#fff}
aside .foot{margin-top:auto;font-size:12px;color:#718096;padding:8px}
main{flex:1;display:flex;flex-direction:column;min-width:0;min-height:100vh}
header{height:56px;border-bottom:1px solid var(--line);background:var(--panel);position:sticky;top:0;z-index:2;display:flex;align-items:center;padding:0 24px;gap:12px}
header .model{font-weight:600}
header .badge{font-size:12px;background:var(--soft);color:var(--accent);padding:2px 8px;border-radius:999px}
#conversation{flex:1;padding:28px 0 24px}
.thread{max-width:820px;margin:0 auto;padding:0 24px;display:flex;flex-direction:column;gap:20px}
.empty{text-align:center;color:var(--muted);margin-top:12vh}
.empty h1{color:var(--ink);font-size:28px;margin:0 0 8px}
.msg.user{align-self:flex-end;background:var(--accent);color:var(--accent-ink);padding:10px 16px;border-radius:18px 18px 4px 18px;max-width:75%;white-space:pre-wrap}
.msg.assistant{display:flex;gap:12px}
.avatar{width:32px;height:32px;border-radius:50%;background:linear-gradient(135deg,#7c7cf0,#36c2b4);flex-shrink:0}
.bubble{flex:1;min-width:0}
#reasoning{border:1px solid var(--line);background:#fafafa;border-radius:12px;padding:10px 14px;margin-bottom:12px;font-size:13.5px;color:#4b5563}
#reasoning summary{cursor:pointer;font-weight:600;color:#374151}
#reasoning .reasoning-summary{font-weight:400;color:var(--muted);margin-left:6px}
#reasoning .reasoning-content{white-space:pre-wrap;margin-top:8px;border-left:3px solid var(--line);padding-left:10px}
#answer h2{font-size:20px;margin:4px 0 8px}
#answer h3{font-size:16px;margin:16px 0 6px}
#answer p{margin:8px 0}
#answer table{border-collapse:collapse;margin:10px 0;font-size:14px}
#answer th,#answer td{border:1px solid var(--line);padding:6px 12px;text-align:left}
#answer th{background:#f3f4f6}
#answer blockquote{margin:10px 0;padding:6px 14px;border-left:4px solid var(--accent);background:var(--soft);border-radius:0 8px 8px 0}
#answer code{background:#f3f4f6;padding:1px 5px;border-radius:5px;font-size:13px}
#answer pre{background:#111827;color:#e5e7eb;padding:12px;border-radius:10px;overflow:auto}
sup.cite{font-size:11px;margin-left:1px}
sup.cite a{display:inline-block;min-width:16px;text-align:center;background:var(--soft);color:var(--accent);border-radius:8px;padding:0 4px;text-decoration:none}
body[data-state=streaming] #answer:after{content:"";display:inline-block;width:8px;height:16px;background:var(--ink);margin-left:2px;vertical-align:text-bottom;animation:blink 1s steps(1) infinite}
@keyframes blink{50%{opacity:0}}
.section-title{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:16px 0 8px;font-weight:600}
#references ol{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:8px}
#references li{border:1px solid var(--line);background:var(--panel);border-radius:10px;padding:8px 10px;display:flex;gap:8px;align-items:flex-start;font-size:13px}
#references li[data-cited=true]{border-color:#c7c7f5;box-shadow:0 0 0 1px #e0e0fb inset}
#references .ref-num{color:var(--muted);font-variant-numeric:tabular-nums}
#references .ref-icon{width:18px;height:18px;border-radius:4px;background:#dbeafe;color:#1d4ed8;font-size:11px;font-weight:700;display:inline-flex;align-items:center;justify-content:center;flex-shrink:0}
#references a.ref-title{color:var(--ink);text-decoration:none;font-weight:500;display:block}
#references .ref-site{color:var(--muted);font-size:12px}
#related ul{list-style:none;padding:0;margin:0}
#related li{border-top:1px solid var(--line);padding:8px 2px;color:var(--accent);cursor:pointer}
#related li:before{content:"↳ ";color:var(--muted)}
#media{margin-top:14px}
#media img{max-width:360px;width:100%;border-radius:12px;display:block;border:1px solid var(--line)}
#media figcaption{font-size:12px;color:var(--muted);margin-top:4px}
#error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:10px;padding:10px 14px}
.composer{border-top:1px solid var(--line);background:var(--panel);padding:14px 24px 18px}
.composer .box{max-width:820px;margin:0 auto;border:1px solid var(--line);border-radius:16px;padding:10px 12px;background:#fff;box-shadow:0 2px 10px rgba(0,0,0,.04)}
#prompt{width:100%;border:0;outline:0;resize:none;font:inherit;min-height:48px;max-height:200px}
.tools{display:flex;align-items:center;gap:10px;margin-top:6px}
.toggle{display:inline-flex;align-items:center;gap:8px;border:1px solid var(--line);border-radius:999px;padding:4px 12px 4px 6px;font-size:13px;cursor:pointer;user-select:none}
.toggle input{appearance:none;width:30px;height:18px;border-radius:999px;background:#d1d5db;position:relative;margin:0;cursor:pointer;transition:background .15s}
.toggle input:after{content:"";position:absolute;top:2px;left:2px;width:14px;height:14px;border-radius:50%;background:#fff;transition:left .15s}
.toggle input:checked{background:var(--accent)}
.toggle input:checked:after{left:14px}
#send{margin-left:auto;background:var(--accent);color:#fff;border:0;border-radius:10px;padding:8px 18px;font:inherit;font-weight:600;cursor:pointer}
#send:disabled{opacity:.45;cursor:default}
.hint{max-width:820px;margin:6px auto 0;font-size:12px;color:var(--muted);text-align:center}
.login{margin:auto;width:380px;background:var(--panel);border:1px solid var(--line);border-radius:16px;padding:32px;box-shadow:0 10px 30px rgba(0,0,0,.06)}
.login h1{font-size:22px;margin:0 0 6px}
.login p{color:var(--muted);margin:0 0 18px}
.login label{display:block;font-size:13px;margin:10px 0 4px}
.login input{width:100%;padding:9px 12px;border:1px solid var(--line);border-radius:8px;font:inherit}
.login button{margin-top:18px;width:100%;background:var(--accent);color:#fff;border:0;border-radius:8px;padding:10px;font:inherit;font-weight:600}
`;

const LOGIN_BODY = String.raw`<div class="login" id="login-wall">
  <h1>Welcome back</h1>
  <p>Your session has expired. Log in to continue chatting with Sandbox.</p>
  <form id="login-form" method="post" action="/login" onsubmit="return false">
    <label for="login-email">Email</label>
    <input id="login-email" name="email" type="email" autocomplete="username" placeholder="you@example.com">
    <label for="login-password">Password</label>
    <input id="login-password" name="password" type="password" autocomplete="current-password" placeholder="••••••••">
    <button type="submit">Log in</button>
  </form>
</div>`;

const SCRIPT = String.raw`
(function(){
  var $ = function(s){ return document.querySelector(s); };
  var body = document.body;
  var promptEl = $('#prompt'), sendEl = $('#send'), tR = $('#toggle-reasoning'), tS = $('#toggle-search');
  var turn = 0;
  var st = null;

  function esc(s){ return String(s).replace(/[&<>"']/g, function(c){ return {'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]; }); }

  function refByIndex(n){
    for (var i = 0; i < st.refs.length; i++) if (String(st.refs[i].index) === String(n)) return st.refs[i];
    return null;
  }

  function inline(text){
    var out = esc(text);
    out = out.replace(/\x60([^\x60]+)\x60/g, '<code>$1</code>');
    out = out.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
    out = out.replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\*)/g, '$1<em>$2</em>');
    out = out.replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noopener">$1</a>');
    out = out.replace(/\[(\d{1,3})\]/g, function(m, n){
      var r = refByIndex(n);
      return '<sup class="cite" data-ref="' + n + '">' + (r ? '<a href="' + esc(r.url) + '" title="' + esc(r.title) + '" target="_blank" rel="noopener">' + n + '</a>' : '<a>' + n + '</a>') + '</sup>';
    });
    return out;
  }

  function isBlockStart(line, next){
    return /^#{1,6}\s/.test(line) || /^\s*[-*+]\s+/.test(line) || /^\s*\d+[.)]\s+/.test(line) || /^\s*>/.test(line) || /^\x60\x60\x60/.test(line) || (/^\s*\|/.test(line) && next !== undefined && /^\s*\|?\s*:?-{3,}/.test(next));
  }

  function cells(line){
    var s = line.trim();
    if (s.charAt(0) === '|') s = s.slice(1);
    if (s.charAt(s.length - 1) === '|') s = s.slice(0, -1);
    return s.split('|').map(function(c){ return c.trim(); });
  }

  function renderMarkdown(md){
    var lines = md.replace(/\r\n?/g, '\n').split('\n');
    var html = [], i = 0, m, items;
    while (i < lines.length) {
      var line = lines[i];
      if (/^\s*$/.test(line)) { i++; continue; }
      if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) { html.push('<h' + m[1].length + '>' + inline(m[2]) + '</h' + m[1].length + '>'); i++; continue; }
      if (/^\x60\x60\x60/.test(line)) {
        var code = []; i++;
        while (i < lines.length && !/^\x60\x60\x60/.test(lines[i])) { code.push(lines[i]); i++; }
        i++; html.push('<pre><code>' + esc(code.join('\n')) + '</code></pre>'); continue;
      }
      if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1])) {
        var head = cells(line); i += 2;
        var rows = [];
        while (i < lines.length && /^\s*\|/.test(lines[i])) { rows.push(cells(lines[i])); i++; }
        html.push('<table><thead><tr>' + head.map(function(c){ return '<th>' + inline(c) + '</th>'; }).join('') + '</tr></thead><tbody>' +
          rows.map(function(r){ return '<tr>' + r.map(function(c){ return '<td>' + inline(c) + '</td>'; }).join('') + '</tr>'; }).join('') + '</tbody></table>');
        continue;
      }
      if (/^\s*>/.test(line)) {
        var quote = [];
        while (i < lines.length && /^\s*>/.test(lines[i])) { quote.push(lines[i].replace(/^\s*>\s?/, '')); i++; }
        html.push('<blockquote>' + renderMarkdown(quote.join('\n')) + '</blockquote>'); continue;
      }
      if (/^\s*[-*+]\s+/.test(line)) {
        items = [];
        while (i < lines.length && /^\s*[-*+]\s+/.test(lines[i])) { items.push(lines[i].replace(/^\s*[-*+]\s+/, '')); i++; }
        html.push('<ul>' + items.map(function(x){ return '<li>' + inline(x) + '</li>'; }).join('') + '</ul>'); continue;
      }
      if (/^\s*\d+[.)]\s+/.test(line)) {
        items = [];
        while (i < lines.length && /^\s*\d+[.)]\s+/.test(lines[i])) { items.push(lines[i].replace(/^\s*\d+[.)]\s+/, '')); i++; }
        html.push('<ol>' + items.map(function(x){ return '<li>' + inline(x) + '</li>'; }).join('') + '</ol>'); continue;
      }
      var para = [line]; i++;
      while (i < lines.length && !/^\s*$/.test(lines[i]) && !isBlockStart(lines[i], lines[i + 1])) { para.push(lines[i]); i++; }
      html.push('<p>' + para.map(inline).join('<br>') + '</p>');
    }
    return html.join('');
  }

  function citedIndices(){
    var set = {};
    var re = /\[(\d{1,3})\]/g, m;
    while ((m = re.exec(st.content))) set[m[1]] = true;
    st.refs.forEach(function(r){ if (st.citedUrls.indexOf(r.url) >= 0) set[String(r.index)] = true; });
    return set;
  }

  function renderAnswer(){
    var a = $('#answer');
    a.setAttribute('data-markdown', st.content);
    a.innerHTML = renderMarkdown(st.content);
  }

  function renderReasoning(){
    var r = $('#reasoning');
    if (!st.reasoning) { r.hidden = true; return; }
    r.hidden = false;
    r.querySelector('.reasoning-summary').textContent = st.summary;
    var c = r.querySelector('.reasoning-content');
    c.textContent = st.reasoning;
    c.setAttribute('data-raw', st.reasoning);
  }

  function renderExtras(){
    var refs = $('#references'), list = refs.querySelector('ol');
    list.textContent = '';
    refs.hidden = st.refs.length === 0;
    var cited = citedIndices();
    st.refs.forEach(function(r){
      var li = document.createElement('li');
      li.setAttribute('data-index', String(r.index));
      li.setAttribute('data-cited', cited[String(r.index)] ? 'true' : 'false');
      var num = document.createElement('span'); num.className = 'ref-num'; num.textContent = String(r.index);
      var icon = document.createElement('span'); icon.className = 'ref-icon'; icon.setAttribute('data-icon', r.icon || '');
      icon.textContent = (r.site || '?').charAt(0).toUpperCase();
      var box = document.createElement('div');
      var a = document.createElement('a'); a.className = 'ref-title'; a.setAttribute('href', r.url); a.target = '_blank'; a.rel = 'noopener'; a.textContent = r.title;
      var site = document.createElement('span'); site.className = 'ref-site'; site.textContent = r.site;
      box.appendChild(a); box.appendChild(site);
      li.appendChild(num); li.appendChild(icon); li.appendChild(box);
      list.appendChild(li);
    });
    var rel = $('#related'), ul = rel.querySelector('ul');
    ul.textContent = '';
    rel.hidden = st.related.length === 0;
    st.related.forEach(function(q){
      var li = document.createElement('li'); li.textContent = q;
      li.addEventListener('click', function(){ promptEl.value = q; sendEl.disabled = false; promptEl.focus(); });
      ul.appendChild(li);
    });
    var media = $('#media');
    media.textContent = '';
    media.hidden = st.images.length === 0;
    st.images.forEach(function(img){
      var fig = document.createElement('figure'); fig.style.margin = '0';
      var el = document.createElement('img'); el.src = img.url; el.alt = img.title || ''; if (img.title) el.title = img.title;
      fig.appendChild(el);
      if (img.title) { var cap = document.createElement('figcaption'); cap.textContent = img.title; fig.appendChild(cap); }
      media.appendChild(fig);
    });
  }

  function onChunk(c){
    if (c.error) throw new Error(c.error.message || 'stream error');
    (c.choices || []).forEach(function(ch){
      var d = ch.delta || {};
      if (typeof d.reasoning_content === 'string' && d.reasoning_content) { st.reasoning += d.reasoning_content; renderReasoning(); }
      if (typeof d.content === 'string' && d.content) { st.content += d.content; renderAnswer(); }
      (d.annotations || []).forEach(function(a){ var u = (a.url_citation || a).url; if (u && st.citedUrls.indexOf(u) < 0) st.citedUrls.push(u); });
      if (ch.finish_reason) st.finish = ch.finish_reason;
    });
    var extras = false;
    if (Array.isArray(c.search_results)) { st.refs = c.search_results.map(function(r, i){ return { index: r.index || i + 1, title: r.title || '', url: r.url, site: r.site_name || '', icon: r.icon || '' }; }); extras = true; }
    if (Array.isArray(c.related_questions)) { st.related = c.related_questions.slice(); extras = true; }
    if (Array.isArray(c.images)) { st.images = c.images.slice(); extras = true; }
    if (typeof c.reasoning_summary === 'string') { st.summary = c.reasoning_summary; renderReasoning(); }
    if (extras || (c.choices || []).some(function(ch){ return ch.delta && ch.delta.annotations; })) { renderExtras(); renderAnswer(); }
  }

  function setError(status, retryAfter, message){
    body.setAttribute('data-error-status', String(status));
    if (retryAfter) body.setAttribute('data-retry-after', retryAfter); else body.removeAttribute('data-retry-after');
    body.setAttribute('data-error', message);
    var e = $('#error'); e.hidden = false;
    e.textContent = status ? 'Something went wrong (' + status + '). ' + message : 'The connection was interrupted. ' + message;
    body.dataset.state = 'error';
  }

  function showLogin(){
    var tpl = document.getElementById('login-template');
    body.innerHTML = '';
    body.appendChild(tpl.content.cloneNode(true));
    body.dataset.state = 'login';
  }

  async function send(){
    var prompt = promptEl.value;
    if (!prompt.trim() || body.dataset.state === 'streaming') return;
    turn++;
    body.dataset.turn = String(turn);
    body.dataset.state = 'streaming';
    body.removeAttribute('data-error-status'); body.removeAttribute('data-error'); body.removeAttribute('data-retry-after');
    st = { content: '', reasoning: '', summary: '', refs: [], citedUrls: [], related: [], images: [], finish: null };
    $('#empty').hidden = true;
    $('#error').hidden = true;
    $('#user-msg').hidden = false;
    $('#user-msg').textContent = prompt;
    $('#assistant-msg').hidden = false;
    renderAnswer(); renderReasoning(); renderExtras();
    promptEl.value = ''; sendEl.disabled = true;
    var payload = { prompt: prompt, reasoning: tR.checked, search: tS.checked };
    try {
      var res = await fetch('/web/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
      if (res.status === 401) { showLogin(); return; }
      if (!res.ok) {
        var text = await res.text(), msg = text;
        try { msg = JSON.parse(text).error.message; } catch (e) {}
        setError(res.status, res.headers.get('retry-after'), msg);
        return;
      }
      var reader = res.body.getReader(), decoder = new TextDecoder(), buf = '', data = [], done = false;
      while (!done) {
        var r = await reader.read();
        if (r.done) break;
        buf += decoder.decode(r.value, { stream: true });
        var parts = buf.split(/\r\n|\r|\n/);
        buf = parts.pop();
        for (var i = 0; i < parts.length && !done; i++) {
          var line = parts[i];
          if (line === '') {
            if (data.length) {
              var payloadText = data.join('\n'); data = [];
              if (payloadText.trim() === '[DONE]') { done = true; break; }
              onChunk(JSON.parse(payloadText));
            }
          } else if (line.charAt(0) !== ':' && line.indexOf('data:') === 0) {
            data.push(line.slice(5).replace(/^ /, ''));
          }
        }
      }
      if (!done && !st.finish) { setError(0, null, 'the answer stream ended early'); return; }
      renderAnswer(); renderReasoning(); renderExtras();
      body.dataset.state = 'done';
    } catch (e) {
      setError(0, null, String(e && e.message || e));
    }
  }

  promptEl.addEventListener('input', function(){ sendEl.disabled = !promptEl.value.trim(); });
  promptEl.addEventListener('keydown', function(e){ if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); } });
  sendEl.addEventListener('click', send);
  sendEl.disabled = !promptEl.value.trim();
})();
`;

function shell(title: string, state: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body data-state="${state}" data-turn="0">
${bodyHtml}
</body>
</html>
`;
}

export function chatPageHtml(): string {
  return shell(
    'Sandbox Chat',
    'idle',
    `<aside>
  <div class="logo"><i></i>Sandbox</div>
  <button class="new" type="button">+ New chat</button>
  <div class="hist active">Current conversation</div>
  <div class="hist">Best project tools 2025</div>
  <div class="hist">对比几款笔记软件</div>
  <div class="foot">Simulated platform · answers are generated locally</div>
</aside>
<main>
  <header><span class="model">Sandbox 1.0</span><span class="badge">simulated</span></header>
  <section id="conversation">
    <div class="thread">
      <div class="empty" id="empty"><h1>What can I help with?</h1><div>Ask anything. Turn on Deep think or Web search for more.</div></div>
      <div class="msg user" id="user-msg" hidden></div>
      <div class="msg assistant" id="assistant-msg" hidden>
        <div class="avatar"></div>
        <div class="bubble">
          <details id="reasoning" open hidden><summary>Thought process<span class="reasoning-summary"></span></summary><div class="reasoning-content" data-raw=""></div></details>
          <div id="answer" class="markdown" data-markdown=""></div>
          <div id="error" role="alert" hidden></div>
          <section id="references" hidden><div class="section-title">Sources</div><ol></ol></section>
          <section id="media-wrap"><div id="media" hidden></div></section>
          <section id="related" hidden><div class="section-title">Related</div><ul></ul></section>
        </div>
      </div>
    </div>
  </section>
  <div class="composer">
    <div class="box">
      <textarea id="prompt" rows="2" placeholder="Message Sandbox…" aria-label="Prompt"></textarea>
      <div class="tools">
        <label class="toggle"><input type="checkbox" id="toggle-reasoning"> Deep think</label>
        <label class="toggle"><input type="checkbox" id="toggle-search"> Web search</label>
        <button id="send" type="button">Send</button>
      </div>
    </div>
    <div class="hint">Sandbox can make mistakes. It is a local simulation.</div>
  </div>
</main>
<template id="login-template">${LOGIN_BODY}</template>
<script>${SCRIPT}</script>`,
  );
}

export function loginPageHtml(): string {
  return shell('Log in · Sandbox', 'login', LOGIN_BODY);
}
