import t from 'tap';
import { brandKey, cleanName, isBrandName } from '../../../services/shared/brand/brand-name.js';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { answerBrandFields, brandFields } from '../../../services/shared/brand/mentions.js';
import { insightDigest } from '../../../services/shared/brand/insight-digest.js';
import { CORPUS } from '../../../bench/brand/corpus/index.js';
import { scoreCorpus } from '../../../bench/brand/corpus/score.js';

const discovered = (watched: string[], answerContent: string) =>
  answerBrandFields(keywordGroups(watched), {
    answerContent,
    referenceList: [],
    citationList: [],
    reasoningProcess: null,
  }).discovered;

t.test('the labeled corpus: precision >= 0.9 and recall >= 0.8', async (t) => {
  t.ok(CORPUS.length >= 60, `${CORPUS.length} answers`);
  t.ok(CORPUS.filter((a) => /\p{sc=Han}/u.test(a.answer)).length >= 30, 'half of them Chinese');
  const score = scoreCorpus();
  t.comment(
    `precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)} ` +
      `(${score.right} right of ${score.found} found, ${score.labels} labels)`,
  );
  t.ok(score.precision >= 0.9, `precision ${score.precision}`, { misses: score.misses });
  t.ok(score.recall >= 0.8, `recall ${score.recall}`, { misses: score.misses });
});

t.test('the "not a brand" rule', async (t) => {
  for (const name of [
    'Pricing',
    'Battery life',
    'Ease of use',
    'Step 1',
    'Conclusion',
    'Final thoughts',
    '价格',
    '总结',
    '续航能力',
    '安全性',
    '第一步',
    '步骤3',
    '如何选择',
    '**Tip:**',
    '$399',
    'Is it free?',
    'Open the app and sign in with your account',
  ]) {
    t.notOk(isBrandName(name), `${name} is no brand`);
  }
  for (const name of [
    'Initech',
    'Stark Industries',
    'Sony WH-1000XM5',
    '1Password',
    '华为Mate 60 Pro',
    '小米',
    '361度',
    'Bang & Olufsen',
    'monday.com',
    'flomo',
  ]) {
    t.ok(isBrandName(name), `${name} is a brand`);
  }
  t.notOk(isBrandName('expensive', true), 'a lower-case word in prose is emphasis');
  t.ok(isBrandName('flomo'), 'the same shape heading a list entry is a name');
});

t.test('names merge by case, width, punctuation and Markdown', async (t) => {
  t.equal(brandKey('**Stark Industries**'), brandKey('ｓｔａｒｋ-industries'));
  t.equal(brandKey('[Initech](https://initech.example)'), brandKey('INITECH'));
  t.equal(cleanName('**《Hooli》**：'), 'Hooli');
  const found = discovered(
    ['Acme'],
    [
      '1. **Initech** — the pick',
      '2. Acme',
      '',
      '| Brand | Price |',
      '|---|---|',
      '| initech | $9 |',
      '| Hooli | $12 |',
      '',
      'Some prefer [INITECH](https://initech.example) or **Umbrella**.',
    ].join('\n'),
  );
  t.same(found, [
    { name: 'Initech', position: 1 },
    { name: 'Hooli', position: 3 },
    { name: 'Umbrella', position: 4 },
  ]);
});

t.test('an entry naming a watched group is that group, and counts for positions', async (t) => {
  const answer = '1. **Acme Cloud**: ours\n2. **Globex**: theirs\n3. **Initech**';
  t.same(discovered(['Acme'], answer), [
    { name: 'Globex', position: 2 },
    { name: 'Initech', position: 3 },
  ]);
  t.same(discovered(['Acme', 'Globex'], answer), [{ name: 'Initech', position: 3 }]);
});

t.test('a list of considerations is no recommendation list, even with a brand in it', async (t) => {
  t.same(
    discovered(
      [],
      '- **Pricing**: cheap\n- **Support**: good\n- **Hooli**: an option\n- **Battery life**: long',
    ),
    [],
  );
  t.same(discovered([], '- **Pricing**: cheap\n\n**Hooli** is the usual pick.'), [
    { name: 'Hooli', position: 1 },
  ]);
});

t.test('numbered headings form a list; labels before a colon give way to the name', async (t) => {
  t.same(discovered(['Acme'], '### 1. Initech\ntext\n### 2. Acme\n### 3. **Hooli** — cheap\n'), [
    { name: 'Initech', position: 1 },
    { name: 'Hooli', position: 3 },
  ]);
  t.same(discovered([], '- **Best overall:** Sony A7 IV\n- **Best budget:** Canon EOS R50'), [
    { name: 'Sony A7 IV', position: 1 },
    { name: 'Canon EOS R50', position: 2 },
  ]);
});

t.test('code is no place for names; no answer, no discoveries', async (t) => {
  t.same(discovered([], '```\n**Initech**\n```\n'), []);
  t.same(discovered(['Acme'], ''), []);
});

t.test(
  'answerBrandFields carries brandFields unchanged, and the digest of what it found',
  async (t) => {
    const groups = keywordGroups(['Acme', 'Globex']);
    const answer = {
      answerContent: '1. **Initech**\n2. **Acme**\n3. Globex',
      referenceList: [],
      citationList: [],
      reasoningProcess: null,
    };
    const {
      discovered: found,
      insightDigest: digest,
      ...fields
    } = answerBrandFields(groups, answer);
    t.same(fields, brandFields(groups, answer));
    t.same(found, [{ name: 'Initech', position: 1 }]);
    t.strictSame(digest, insightDigest({ ...fields, discovered: found, ...answer }));
  },
);
