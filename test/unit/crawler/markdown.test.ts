import t from 'tap';
import { escapeHtml, renderMarkdown } from '../../../crawler/markdown.js';

t.test('escapeHtml', async (t) => {
  t.equal(
    escapeHtml(`<a href="x" onclick='y'>&</a>`),
    '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
  );
  t.equal(escapeHtml('plain text, 中文'), 'plain text, 中文');
  t.equal(escapeHtml(''), '');
  t.equal(escapeHtml('&amp;'), '&amp;amp;', 'escapes an existing entity again');
});

t.test('empty input', async (t) => {
  t.equal(renderMarkdown(''), '');
  t.equal(renderMarkdown('\n\n  \n'), '');
});

t.test('headings', async (t) => {
  t.equal(renderMarkdown('# One'), '<h1>One</h1>');
  t.equal(renderMarkdown('## Two'), '<h2>Two</h2>');
  t.equal(renderMarkdown('###### Six'), '<h6>Six</h6>');
  t.equal(renderMarkdown('####### Seven'), '<p>####### Seven</p>', 'no h7');
  t.equal(renderMarkdown('#hashtag'), '<p>#hashtag</p>', 'needs a space');
  t.equal(renderMarkdown('# H **b** *i*'), '<h1>H <strong>b</strong> <em>i</em></h1>');
});

t.test('paragraphs', async (t) => {
  t.equal(renderMarkdown('a\nb\n\nc'), '<p>a b</p>\n<p>c</p>');
  t.equal(renderMarkdown('  padded  '), '<p>padded</p>');
  t.equal(renderMarkdown('a\r\nb\rc'), '<p>a b c</p>', 'CRLF and CR line ends');
  t.equal(renderMarkdown('text\n# Head\nmore'), '<p>text</p>\n<h1>Head</h1>\n<p>more</p>');
});

t.test('unordered lists', async (t) => {
  t.equal(renderMarkdown('- a\n- b'), '<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
  t.equal(renderMarkdown('* a\n+ b'), '<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
  t.equal(renderMarkdown('  - indented'), '<ul>\n<li>indented</li>\n</ul>');
  t.equal(renderMarkdown('-no space'), '<p>-no space</p>');
  t.equal(renderMarkdown('- **bold** item'), '<ul>\n<li><strong>bold</strong> item</li>\n</ul>');
});

t.test('ordered lists', async (t) => {
  t.equal(renderMarkdown('1. x\n2. y'), '<ol>\n<li>x</li>\n<li>y</li>\n</ol>');
  t.equal(renderMarkdown('1) x\n10) y'), '<ol>\n<li>x</li>\n<li>y</li>\n</ol>');
});

t.test('list boundaries', async (t) => {
  t.equal(
    renderMarkdown('- a\n- b\n\n1. x\n2) y'),
    '<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<ol>\n<li>x</li>\n<li>y</li>\n</ol>',
  );
  t.equal(renderMarkdown('- a\n1. b'), '<ul>\n<li>a</li>\n</ul>\n<ol>\n<li>b</li>\n</ol>');
  t.equal(
    renderMarkdown('intro\n- a\n- b\nafter'),
    '<p>intro</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<p>after</p>',
  );
  t.equal(renderMarkdown('- a\n# H'), '<ul>\n<li>a</li>\n</ul>\n<h1>H</h1>');
});

t.test('bold and italic', async (t) => {
  t.equal(renderMarkdown('**bold**'), '<p><strong>bold</strong></p>');
  t.equal(renderMarkdown('*italic*'), '<p><em>italic</em></p>');
  t.equal(renderMarkdown('a **b** c *d* e'), '<p>a <strong>b</strong> c <em>d</em> e</p>');
  t.equal(renderMarkdown('2 * 3 * 4'), '<p>2 * 3 * 4</p>', 'arithmetic is not italic');
});

t.test('inline code', async (t) => {
  t.equal(renderMarkdown('use `npm ci` here'), '<p>use <code>npm ci</code> here</p>');
  t.equal(renderMarkdown('`<b>`'), '<p><code>&lt;b&gt;</code></p>');
});

// Code spans are literal in Markdown; here emphasis and citation markers are
// applied inside them, so `arr[1]` renders a citation superscript in code.
t.test('inline code content is literal', async (t) => {
  t.equal(renderMarkdown('`a*b*c`'), '<p><code>a*b*c</code></p>');
  t.equal(renderMarkdown('`**x**`'), '<p><code>**x**</code></p>');
  t.equal(renderMarkdown('read `arr[1]` first'), '<p>read <code>arr[1]</code> first</p>');
});

t.test('code fences', async (t) => {
  t.equal(
    renderMarkdown('```js\n<b>x</b>\n# not a heading\n- not a list\n**not bold** [1]\n```'),
    '<pre><code>&lt;b&gt;x&lt;/b&gt;\n# not a heading\n- not a list\n**not bold** [1]</code></pre>',
  );
  t.equal(
    renderMarkdown('before\n```\ncode\n```\nafter'),
    '<p>before</p>\n<pre><code>code</code></pre>\n<p>after</p>',
  );
  t.equal(renderMarkdown('- a\n```\nx\n```'), '<ul>\n<li>a</li>\n</ul>\n<pre><code>x</code></pre>');
  t.equal(renderMarkdown('```\nunclosed\nrest'), '<pre><code>unclosed\nrest</code></pre>');
  t.equal(renderMarkdown('```\n```'), '<pre><code></code></pre>');
});

t.test('blockquotes', async (t) => {
  t.equal(renderMarkdown('> quote'), '<blockquote>quote</blockquote>');
  t.equal(renderMarkdown('>quote'), '<blockquote>quote</blockquote>');
  t.equal(renderMarkdown('> **a**'), '<blockquote><strong>a</strong></blockquote>');
});

t.test('links: only http and https', async (t) => {
  t.equal(
    renderMarkdown('[Acme](https://acme.example/x)'),
    '<p><a href="https://acme.example/x">Acme</a></p>',
  );
  t.equal(
    renderMarkdown('[Acme](http://acme.example)'),
    '<p><a href="http://acme.example">Acme</a></p>',
  );
  t.equal(
    renderMarkdown('[a](https://e.example/x?y=1&z=2)'),
    '<p><a href="https://e.example/x?y=1&amp;z=2">a</a></p>',
    'the URL is escaped',
  );
  t.equal(renderMarkdown('[x](javascript:alert(1))'), '<p>[x](javascript:alert(1))</p>');
  t.equal(
    renderMarkdown('[x](data:text/html,<script>alert(1)</script>)'),
    '<p>[x](data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;)</p>',
  );
  t.equal(renderMarkdown('[x](ftp://e.example)'), '<p>[x](ftp://e.example)</p>');
  t.equal(
    renderMarkdown('[x](https://e.example/" onmouseover="alert(1))'),
    '<p>[x](https://e.example/&quot; onmouseover=&quot;alert(1))</p>',
    'no attribute break-out',
  );
  t.equal(
    renderMarkdown('[x](https://e.example/"onmouseover="alert(1))'),
    '<p><a href="https://e.example/&quot;onmouseover=&quot;alert(1">x</a>)</p>',
    'quotes in the URL stay escaped inside the attribute',
  );
});

t.test('[n] markers become superscript citations', async (t) => {
  t.equal(
    renderMarkdown('see [1] and [23].'),
    '<p>see <sup class="cite">[1]</sup> and <sup class="cite">[23]</sup>.</p>',
  );
  t.equal(
    renderMarkdown('Acme[2][3]'),
    '<p>Acme<sup class="cite">[2]</sup><sup class="cite">[3]</sup></p>',
  );
  t.equal(renderMarkdown('[a] and [1a]'), '<p>[a] and [1a]</p>', 'only numbers');
  t.equal(
    renderMarkdown('[1](https://e.example)'),
    '<p><a href="https://e.example">1</a></p>',
    'a numbered link stays a link',
  );
  t.equal(renderMarkdown('- item [4]'), '<ul>\n<li>item <sup class="cite">[4]</sup></li>\n</ul>');
});

// A [n] inside a link's URL is turned into <sup class="cite">, whose quotes
// end the href attribute early: the URL is corrupted and the markup broken.
t.test('a [n] inside a link URL is left alone', async (t) => {
  t.equal(
    renderMarkdown('[q](https://e.example/?a[1]=b)'),
    '<p><a href="https://e.example/?a[1]=b">q</a></p>',
  );
});

t.test('HTML in the input is escaped, never injected', async (t) => {
  t.equal(
    renderMarkdown('<script>alert(1)</script>'),
    '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
  );
  t.equal(
    renderMarkdown('# <img src=x onerror=alert(1)>'),
    '<h1>&lt;img src=x onerror=alert(1)&gt;</h1>',
  );
  t.equal(renderMarkdown('- <b>x</b>'), '<ul>\n<li>&lt;b&gt;x&lt;/b&gt;</li>\n</ul>');
  t.equal(
    renderMarkdown('> </blockquote><i>'),
    '<blockquote>&lt;/blockquote&gt;&lt;i&gt;</blockquote>',
  );
  t.equal(renderMarkdown('**<u>x</u>**'), '<p><strong>&lt;u&gt;x&lt;/u&gt;</strong></p>');
  t.equal(
    renderMarkdown(`[<b>"x"</b>](https://e.example)`),
    '<p><a href="https://e.example">&lt;b&gt;&quot;x&quot;&lt;/b&gt;</a></p>',
  );
  t.equal(renderMarkdown(`it's "fine" & ok`), '<p>it&#39;s &quot;fine&quot; &amp; ok</p>');
});

t.test('no raw < or > from the input survives in any block', async (t) => {
  const input = [
    '# <h>',
    '<p>',
    '- <li>',
    '1. <ol>',
    '> <q>',
    '```',
    '<pre>',
    '```',
    '**<b>** *<i>* `<c>` [<a>](https://e.example/<x>) [9]',
  ].join('\n');
  const html = renderMarkdown(input);
  const tags = html.match(/<\/?[a-z0-9]+/g) ?? [];
  const allowed = new Set([
    'h1',
    'p',
    'ul',
    'li',
    'ol',
    'blockquote',
    'pre',
    'code',
    'strong',
    'em',
    'a',
    'sup',
  ]);
  t.strictSame(
    tags.map((tag) => tag.replace(/[</]/g, '')).filter((tag) => !allowed.has(tag)),
    [],
  );
  for (const word of [
    '<h>',
    '<p>',
    '<li>',
    '<ol>',
    '<q>',
    '<pre>',
    '<b>',
    '<i>',
    '<c>',
    '<a>',
    '<x>',
  ]) {
    t.equal(html.includes(escapeHtml(word)), true, `${word} escaped`);
  }
});

t.test('tables', async (t) => {
  t.equal(
    renderMarkdown('| Brand | Price |\n| --- | --- |\n| **Acme** | $$ |\n| Globex | $ |'),
    '<table><thead><tr><th>Brand</th><th>Price</th></tr></thead><tbody>' +
      '<tr><td><strong>Acme</strong></td><td>$$</td></tr><tr><td>Globex</td><td>$</td></tr></tbody></table>',
  );
  t.equal(
    renderMarkdown('| not a table |'),
    '<p>| not a table |</p>',
    'a lone row without a separator stays text',
  );
});
