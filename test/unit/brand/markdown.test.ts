/** The Markdown scanner's text pieces: exactly which characters are text. */
import t from 'tap';
import { markdownText } from '../../../services/shared/brand/markdown.js';

/** The text pieces, with `¦` where a separating syntax came between two of them. */
function text(md: string): string {
  const pieces = markdownText(md);
  let out = '';
  for (let k = 0; k < pieces.length; k += 3) {
    if (pieces[k + 2] && out) out += '¦';
    out += md.slice(pieces[k], pieces[k + 1]);
  }
  return out;
}

t.test('block markers and indentation are not text', async (t) => {
  t.equal(text('# Acme #'), 'Acme');
  t.equal(text('  > - [x] Acme'), 'Acme');
  t.equal(text('12. Acme\n   * Beta'), 'Acme\n¦Beta');
  t.equal(text('#hashtag'), '#hashtag', 'no space: not a heading');
  t.equal(text('-5% Acme'), '-5% Acme', 'no space: not a list marker');
});

t.test('inline syntax: transparent or separating', async (t) => {
  t.equal(text("**Acme**'s ~~old~~ _new_ snake_case \\*x\\*"), "Acme's old new snake_case *x*");
  t.equal(text('[Acme](https://acme.com "Acme Inc") ![logo](a.png)'), 'Acme logo');
  t.equal(text('a <https://acme.com> b https://x.com/y. c'), 'a ¦ b ¦. c');
  t.equal(text('| Acme | Beta |\n|---|---|\n| 1 | 2 |'), ' Acme ¦ Beta ¦\n¦\n¦ 1 ¦ 2 ');
  t.equal(text('<b>Acme</b><br/>x'), 'Acmex');
  t.equal(text('`a https://x.com b`'), 'a ¦ b', 'code is text but its URLs are not');
});

t.test('fences, definitions and breaks', async (t) => {
  t.equal(text('```js\nconst a = 1;\n```\nAcme'), '\nconst a = 1;\n¦\nAcme');
  t.equal(text('[1]: https://acme.com "Acme"\nAcme'), '\nAcme');
  t.equal(text('Acme\n***\nBeta'), 'Acme\n¦\nBeta');
});
