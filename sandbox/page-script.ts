/**
 * The chat page's script: sends the prompt to `POST /web/chat`, reads the
 * OpenAI-style SSE stream the API face also sends, renders the Markdown with
 * citation links, and keeps the DOM contract of page.ts up to date. A plain
 * string, so no loader rewrites it.
 */
export const PAGE_SCRIPT = String.raw`
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
