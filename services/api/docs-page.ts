/**
 * A self-contained page that renders the OpenAPI document (no CDN: the
 * service must work offline). It lists every operation with its parameters,
 * request body and answers, and expands schemas inline.
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>AI-answer monitoring API</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d2733; background: #f6f8fa; }
  header { background: #1d2733; color: #fff; padding: 16px 32px; }
  main { max-width: 1000px; margin: 0 auto; padding: 16px 32px; }
  section { background: #fff; border: 1px solid #d8dee4; border-radius: 8px; margin: 16px 0; padding: 12px 20px; }
  .verb { display: inline-block; min-width: 56px; font-weight: 700; color: #fff; border-radius: 4px; padding: 0 6px; text-align: center; }
  .get { background: #1f7a4d; } .post { background: #2459b3; } .put { background: #8a5a00; } .delete { background: #b32424; }
  code, pre { font-family: ui-monospace, monospace; font-size: 13px; }
  pre { background: #f0f3f6; padding: 8px; border-radius: 6px; overflow-x: auto; }
  .lock { color: #8a5a00; font-size: 13px; }
</style>
</head>
<body>
<header><h1 id="title">API</h1><div id="desc"></div></header>
<main id="ops"><p>Loading <a href="openapi.json">openapi.json</a>…</p></main>
<script>
const resolve = (doc, s, depth = 0) => {
  if (!s || depth > 6) return s;
  if (s.$ref) return resolve(doc, doc.components.schemas[s.$ref.split('/').pop()], depth + 1);
  const out = Array.isArray(s) ? [] : {};
  for (const [k, v] of Object.entries(s)) out[k] = typeof v === 'object' && v !== null ? resolve(doc, v, depth + 1) : v;
  return out;
};
const esc = (t) => String(t).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
fetch('openapi.json').then((r) => r.json()).then((doc) => {
  document.getElementById('title').textContent = doc.info.title + ' ' + doc.info.version;
  document.getElementById('desc').textContent = doc.info.description;
  const html = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [verb, op] of Object.entries(item)) {
      html.push('<section><h3><span class="verb ' + verb + '">' + verb.toUpperCase() + '</span> <code>' + esc(path) + '</code></h3>');
      html.push('<p>' + esc(op.summary || '') + (op.security ? ' <span class="lock">🔒 Bearer token</span>' : '') + '</p>');
      if (op.parameters && op.parameters.length) {
        html.push('<h4>Parameters</h4><ul>' + op.parameters.map((p) => '<li><code>' + esc(p.name) + '</code> (' + p.in + (p.required ? ', required' : '') + ') ' + esc(p.description || '') + '</li>').join('') + '</ul>');
      }
      if (op.requestBody) {
        html.push('<h4>Request body</h4><pre>' + esc(JSON.stringify(resolve(doc, op.requestBody.content['application/json'].schema), null, 2)) + '</pre>');
      }
      html.push('<h4>Responses</h4><ul>' + Object.entries(op.responses).map(([code, r]) => '<li><b>' + code + '</b> ' + esc(r.description) + '</li>').join('') + '</ul>');
      const ok = op.responses['200'];
      if (ok && ok.content) html.push('<details><summary>200 body schema</summary><pre>' + esc(JSON.stringify(resolve(doc, ok.content['application/json'].schema), null, 2)) + '</pre></details>');
      html.push('</section>');
    }
  }
  document.getElementById('ops').innerHTML = html.join('');
});
</script>
</body>
</html>
`;
