/**
 * The alias matcher on plain text and on Markdown: examples of each rule,
 * then properties over generated texts (fast-check).
 */
import fc from 'fast-check';
import t from 'tap';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { fold } from '../../../services/shared/brand/fold.js';
import { findMentions } from '../../../services/shared/brand/matcher.js';

const groups = keywordGroups(['Acme|阿克米|ACME Inc.|acme.com', 'Beta|贝塔', 'Acme Cloud']);

/** [keyword, the matched original text] of each mention. */
function found(text: string, markdown = true, g = groups): [string, string][] {
  return findMentions(text, g, { markdown }).map((m) => [m.keyword, text.slice(m.start, m.end)]);
}

t.test(
  'case-insensitive on NFKC text: full-width letters match, offsets are in the original',
  async (t) => {
    t.same(found('ＡＣＭＥ，acme；ACME'), [
      ['Acme', 'ＡＣＭＥ'],
      ['Acme', 'acme'],
      ['Acme', 'ACME'],
    ]);
    const text = '㈱ ｱ ＡＣＭＥ Acme';
    t.same(
      findMentions(text, groups, { markdown: false }).map((m) => [m.start, m.end]),
      [
        [4, 8],
        [9, 13],
      ],
      'NFKC lengthens ㈱ before them; the offsets still point at the original',
    );
    t.same(found('ａｃｍｅ．ｃｏｍ'), [['Acme', 'ａｃｍｅ．ｃｏｍ']], 'a full-width domain alias');
  },
);

t.test(
  'an alias matched with a combining mark after it does not match (the mark changes the letter)',
  async (t) => {
    t.same(found('Acme\u0301'), []);
    t.same(found('Acme\u0301 Acme'), [['Acme', 'Acme']]);
    const accented = keywordGroups(['Café']);
    t.same(found('cafe\u0301 CAFÉ', false, accented), [
      ['Café', 'cafe\u0301'],
      ['Café', 'CAFÉ'],
    ]);
  },
);

t.test('Latin aliases on word boundaries', async (t) => {
  t.same(found('Acmetronics SuperAcme 3Acme Acme3 Acme_x'), []);
  t.same(found("Acme's (Acme) Acme. Acme。Acme公司 阿克米Acme-based"), [
    ['Acme', 'Acme'],
    ['Acme', 'Acme'],
    ['Acme', 'Acme'],
    ['Acme', 'Acme'],
    ['Acme', 'Acme'],
    ['Acme', '阿克米'],
    ['Acme', 'Acme'],
  ]);
  t.same(found('ΑcmeΩ'), [], 'a Greek letter is a word character too');
  t.same(
    found('ACME Inc.x'),
    [['Acme', 'ACME Inc.']],
    'an alias ending in punctuation has no end boundary',
  );
});

t.test('CJK aliases match as substrings', async (t) => {
  t.same(found('我们的阿克米公司和贝塔集团'), [
    ['Acme', '阿克米'],
    ['Beta', '贝塔'],
  ]);
  const mixed = keywordGroups(['阿克米Cloud']);
  t.same(
    found('用阿克米Cloud做 阿克米Cloudy 新阿克米cloud。', false, mixed),
    [
      ['阿克米Cloud', '阿克米Cloud'],
      ['阿克米Cloud', '阿克米cloud'],
    ],
    'a mixed alias checks only its Latin end',
  );
  t.same(found('株式会社', false, keywordGroups(['株'])), [['株', '株']]);
  t.same(found('㈱', false, keywordGroups(['株'])), [], 'not inside one folded character');
});

t.test('overlapping aliases: the longest wins, no overlaps, left to right', async (t) => {
  t.same(found('Acme Cloud and Acme'), [
    ['Acme Cloud', 'Acme Cloud'],
    ['Acme', 'Acme'],
  ]);
  t.same(
    found('ACME Inc. is Acme Cloudy'),
    [
      ['Acme', 'ACME Inc.'],
      ['Acme', 'Acme'],
    ],
    'the longer one fails its boundary, the shorter one matches',
  );
  const nested = keywordGroups(['ab', 'abc|bcd', 'cde']);
  t.same(found('abcde', false, nested), [], 'Latin aliases inside a word do not match');
  t.same(found('ab abc bcd cde abcd', false, nested), [
    ['ab', 'ab'],
    ['abc', 'abc'],
    ['abc', 'bcd'],
    ['cde', 'cde'],
  ]);
  const cjk = keywordGroups(['阿克', '阿克米|克米公司', '米公司']);
  t.same(
    found('阿克米公司', false, cjk),
    [['阿克米', '阿克米']],
    'at the first position the longest; the rest overlaps',
  );
  t.same(found('克米公司阿克', false, cjk), [
    ['阿克米', '克米公司'],
    ['阿克', '阿克'],
  ]);
  const same = keywordGroups(['First|shared', 'Second|shared']);
  t.same(
    found('shared', false, same),
    [['First', 'shared']],
    'the same alias in two groups: the earlier group',
  );
});

t.test('Markdown: link and image URLs, autolinks, bare URLs are not text', async (t) => {
  t.same(
    found('[Acme](https://acme.com "Acme")'),
    [['Acme', 'Acme']],
    'one mention, the link text',
  );
  t.same(found('![Acme logo](https://acme.com/logo.png)'), [['Acme', 'Acme']], 'alt text counts');
  t.same(found('see <https://acme.com/acme> or https://acme.com/Acme.'), []);
  t.same(
    found('访问https://acme.com了解阿克米。'),
    [['Acme', '阿克米']],
    'a bare URL ends at CJK text',
  );
  t.same(
    found('[Acme][1] and [the acme site][]\n\n[1]: https://acme.com "Acme"'),
    [
      ['Acme', 'Acme'],
      ['Acme', 'acme'],
    ],
    'reference links; the definition line is not text',
  );
  t.same(found('[[Acme](https://acme.com)](https://beta.com)'), [['Acme', 'Acme']], 'nested');
  t.same(found('[1] Acme [2]'), [['Acme', 'Acme']], 'citation marks stay text');
  t.same(
    found('Acme.com and acme.com/x'),
    [
      ['Acme', 'Acme.com'],
      ['Acme', 'acme.com'],
    ],
    'a domain written without a scheme is text',
  );
  t.same(found('https://acme.com', false), [['Acme', 'acme.com']], 'plain text keeps URLs');
});

t.test('Markdown: syntax is not text', async (t) => {
  const md = [
    '# Acme #',
    '## **Beta** vs _Acme_',
    '> - [x] Acme',
    '1. ~~Acme~~ \\*Acme\\*',
    '| Acme | 贝塔 |',
    '|---|:---:|',
    '|Acme|Beta|',
    '***',
    '```acme',
    'npm i acme # https://acme.com',
    '```',
    '`Acme` <b>Acme</b> acme_sdk',
  ].join('\n');
  t.same(
    found(md).map(([, text]) => text),
    [
      'Acme',
      'Beta',
      'Acme',
      'Acme',
      'Acme',
      'Acme',
      'Acme',
      '贝塔',
      'Acme',
      'Beta',
      'acme',
      'Acme',
      'Acme',
    ],
  );
  t.same(
    found("**Acme**'s"),
    [['Acme', "Acme**'s".slice(0, 4)]],
    'emphasis joins the text around it',
  );
  t.same(found('**Acme**tronics'), [], 'and so is not a boundary');
  t.same(found('**ACME** Inc.'), [['Acme', 'ACME** Inc.']], 'a match may span emphasis markers');
  t.same(found('Acme|Cloud'), [['Acme', 'Acme']], 'a table pipe separates: no Acme Cloud');
  t.same(found('Acme|Cloud', false), [['Acme', 'Acme']], 'in plain text | is punctuation');
});

// Properties ---------------------------------------------------------------

const fullWidth = (s: string): string =>
  s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
const nfkcLower = (s: string): string => s.normalize('NFKC').toLowerCase();

const aliasPool = [
  'Acme',
  'ACME Inc.',
  'acme.com',
  '阿克米',
  'Beta',
  '贝塔',
  'Acme Cloud',
  'a1',
  '克米公司',
];
const fragments = fc.oneof(
  fc.constantFrom(...aliasPool),
  fc.constantFrom(...aliasPool).map((a) => a.toUpperCase()),
  fc.constantFrom(...aliasPool).map(fullWidth),
  fc.constantFrom(
    ' ',
    '  ',
    '.',
    ',',
    '。',
    '，',
    "'",
    '-',
    '\n',
    '㈱',
    'e\u0301',
    '\u0301',
    'é',
    'ß',
    'İ',
    '｡',
    '\u00a0',
  ),
  fc.stringMatching(/^[a-zA-Z0-9]{1,4}$/),
  fc.constantFrom('公司', '的', '米', '阿', '克', 'ｱ', 'ｶﾞ', '가', 'ΑΩ'),
);
const texts = fc.array(fragments, { maxLength: 30 }).map((parts) => parts.join(''));
const poolGroups = keywordGroups([
  'Acme|ACME Inc.|acme.com|阿克米',
  'Beta|贝塔',
  'Acme Cloud|克米公司',
  'a1',
]);
const foldedAliases = new Map(poolGroups.map((g) => [g.keyword, g.aliases.map(nfkcLower)]));

t.test(
  'property: offsets map back to an alias of the group, in order, never overlapping',
  async (t) => {
    fc.assert(
      fc.property(texts, fc.boolean(), (text, markdown) => {
        let last = 0;
        for (const m of findMentions(text, poolGroups, { markdown })) {
          if (m.start < last || m.end <= m.start) return false;
          last = m.end;
          if (markdown) continue; // Markdown matches may span transparent syntax
          if (!foldedAliases.get(m.keyword)!.includes(nfkcLower(text.slice(m.start, m.end))))
            return false;
        }
        return true;
      }),
      { numRuns: 2000 },
    );
    t.pass('2000 texts');
  },
);

t.test('property: full-width and upper-case text matches as the text does', async (t) => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.constantFrom(...aliasPool, ' ', ', ', '的'),
          fc.stringMatching(/^[a-z ]{1,5}$/),
        ),
        { maxLength: 20 },
      ),
      (parts) => {
        const text = parts.join('');
        const keys = (s: string) =>
          findMentions(s, poolGroups, { markdown: false }).map((m) => m.keyword);
        t.same(keys(fullWidth(text)), keys(text));
        t.same(keys(text.toUpperCase()), keys(text));
      },
    ),
    { numRuns: 300 },
  );
});

t.test(
  'property: a Latin alias between word characters never matches; between spaces it always does',
  async (t) => {
    const one = keywordGroups(['Acme']);
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-zA-Z0-9]{1,6}$/),
        fc.stringMatching(/^[a-zA-Z0-9]{1,6}$/),
        fc.boolean(),
        (a, b, md) => {
          const inside = findMentions(`${a}Acme${b} ${a}Acme ACME${b}`, one, { markdown: md });
          const alone = findMentions(`${a} Acme ${b}`, one, { markdown: md });
          return inside.length === 0 && alone.length === 1 && alone[0]!.start === a.length + 1;
        },
      ),
      { numRuns: 500 },
    );
    t.pass();
  },
);

t.test('property: a CJK alias is found as a substring of CJK text', async (t) => {
  const one = keywordGroups(['阿克米']);
  const han = fc.stringMatching(/^[\u4e00-\u4e8f]{0,8}$/);
  fc.assert(
    fc.property(han, han, (a, b) => {
      const m = findMentions(`${a}阿克米${b}`, one);
      return m.length === 1 && m[0]!.start === a.length && m[0]!.end === a.length + 3;
    }),
    { numRuns: 500 },
  );
  t.pass();
});

t.test(
  'property: Markdown emphasis and links do not change what is found; URLs add nothing',
  async (t) => {
    const word = fc.oneof(
      fc.constantFrom(...aliasPool),
      fc.stringMatching(/^[a-z]{1,5}$/),
      fc.constant('的'),
    );
    const decorated = fc.tuple(
      word,
      fc.constantFrom('plain', 'bold', 'italic', 'code', 'link', 'image', 'url'),
    );
    fc.assert(
      fc.property(fc.array(decorated, { maxLength: 12 }), (items) => {
        const plain = items.map(([w]) => w).join(' ');
        const md = items
          .map(([w, how]) => {
            switch (how) {
              case 'bold':
                return `**${w}**`;
              case 'italic':
                return `_${w}_`;
              case 'code':
                return `\`${w}\``;
              case 'link':
                return `[${w}](https://acme.com/Acme/${encodeURIComponent(w)})`;
              case 'image':
                return `![${w}](https://beta.com/贝塔.png "Acme")`;
              case 'url':
                return `${w} https://acme.com/${encodeURIComponent(w)}/Acme`;
              default:
                return w;
            }
          })
          .join(' ');
        const keys = (s: string, markdown: boolean) =>
          findMentions(s, poolGroups, { markdown }).map((m) => m.keyword);
        t.same(keys(md, true), keys(plain, false), md);
      }),
      { numRuns: 300 },
    );
  },
);

t.test('Markdown: edge cases read as text', async (t) => {
  t.same(
    found('`Acme and ``Beta`'),
    [
      ['Acme', 'Acme'],
      ['Beta', 'Beta'],
    ],
    'a code span holds longer backtick runs',
  );
  t.same(
    found('``Acme ` Beta``'),
    [
      ['Acme', 'Acme'],
      ['Beta', 'Beta'],
    ],
    'a code span holds shorter backtick runs',
  );
  t.same(
    found('1 < 2 Acme <3 Beta'),
    [
      ['Acme', 'Acme'],
      ['Beta', 'Beta'],
    ],
    'a lone < is text',
  );
  t.same(
    found('[Acme \\] [Beta] ok](https://x.com/(Acme)) Acme'),
    [
      ['Acme', 'Acme'],
      ['Beta', 'Beta'],
      ['Acme', 'Acme'],
    ],
    'brackets and parentheses balance, escapes skip',
  );
  t.same(
    found('[Acme](https://x.com/unclosed Acme'),
    [
      ['Acme', 'Acme'],
      ['Acme', 'Acme'],
    ],
    'an unclosed destination is text',
  );
  t.same(found('~Acme~ ~~Beta~~'), [
    ['Acme', 'Acme'],
    ['Beta', 'Beta'],
  ]);
  t.same(
    found('https://en.wikipedia.org/wiki/Acme_(company)) Beta'),
    [['Beta', 'Beta']],
    'parentheses in a URL',
  );
  t.same(
    found('(see https://acme.com/x) Acme'),
    [['Acme', 'Acme']],
    'an unbalanced ) ends the URL',
  );
  t.same(
    found('HTTPS://ACME.COM/Acme. Acme'),
    [['Acme', 'Acme']],
    'any case, without its trailing dot',
  );
  t.same(found('hthttps://acme.com the Acme'), [['Acme', 'Acme']]);
  const deep = `${'['.repeat(12)}Acme${'](u)'.repeat(12)}`;
  t.same(
    found(deep).map(([k]) => k),
    ['Acme'],
    'deep nesting stays linear and finds the text',
  );
  const fence = '~~~\nAcme\n```\nstill code Acme\n~~~\nAcme';
  t.same(found(fence).length, 3, 'a fence closes only with its own character');
});

t.test('Markdown is the default', async (t) => {
  t.equal(findMentions('[Acme](https://acme.com)', groups).length, 1);
  t.equal(findMentions('[Acme](https://acme.com)', groups, { markdown: false }).length, 2);
  t.same(findMentions('', groups), []);
  t.same(findMentions('Acme', []), []);
});

t.test(
  'property: any text, any Markdown-looking junk: ranges in bounds, ordered, each an alias by the same folding',
  async (t) => {
    const junk = fc.array(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 6 }),
        fc.constantFrom(
          ...aliasPool,
          '[',
          ']',
          '(',
          ')',
          '![',
          '**',
          '_',
          '`',
          '```',
          '~~',
          '<',
          '>',
          '|',
          '#',
          '\n',
          '- ',
          'https://',
          '\\',
        ),
      ),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(junk, fc.boolean(), (parts, markdown) => {
        const text = parts.join('');
        let last = 0;
        for (const m of findMentions(text, poolGroups, { markdown })) {
          if (m.start < last || m.end <= m.start || m.end > text.length) return false;
          last = m.end;
          if (
            !markdown &&
            !foldedAliases
              .get(m.keyword)!
              .map(fold)
              .includes(fold(text.slice(m.start, m.end)))
          )
            return false;
        }
        return true;
      }),
      { numRuns: 3000 },
    );
    t.pass('3000 texts');
  },
);
