import t from 'tap';
import type { Reference } from '../../../services/shared/contracts/answer.js';
import type { Mention } from '../../../services/shared/contracts/brand.js';
import { hash53 } from '../../../services/shared/brand/hash-ids.js';
import {
  competitorsOf,
  DIGEST_VERSION,
  DigestReader,
  insightDigest,
  roleOf,
  storedDigest,
} from '../../../services/shared/brand/insight-digest.js';

const mention = (keyword: string, count: number): Mention => ({
  keyword,
  count,
  firstIndex: count ? 0 : null,
  position: count ? 1 : null,
  groupRank: count ? 1 : null,
  inReasoning: false,
  inReferences: false,
  inCitations: false,
});

const refs = (...urls: string[]): Reference[] =>
  urls.map((url, i) => ({ index: i + 1, title: `t${i}`, url, site: '', icon: '' }));

const answer = {
  mentions: [mention('Acme', 0), mention('Beta', 2), mention('Gamma', 0)],
  discovered: [
    { name: 'Initech', position: 2 },
    { name: '**initech**', position: 3 },
    { name: '—', position: 4 },
    { name: 'Hooli', position: 5 },
  ],
  citationList: refs('https://www.reviews.example/a', 'not a url'),
  referenceList: refs(
    'https://www.reviews.example/a',
    'https://forum.example/t/1',
    '',
    'https://www.reviews.example/b',
  ),
};

t.test('the digest of an answer, part by part', async (t) => {
  t.same(competitorsOf(answer), ['Beta', 'Initech', '**initech**', '—', 'Hooli']);
  t.strictSame(insightDigest(answer), [
    DIGEST_VERSION,
    hash53('Beta\nInitech\n**initech**\n—\nHooli'),
    4, // discovered.length
    4, // referenceList.length
    2, // entries: the first of each key, none without a key
    hash53('Initech'),
    hash53('initech'),
    2,
    0,
    hash53('Hooli'),
    hash53('hooli'),
    5,
    3,
    2, // retrieved and not cited, with a host
    1,
    hash53('forum.example'),
    hash53('https://forum.example/t/1'),
    3,
    hash53('reviews.example'),
    hash53('https://www.reviews.example/b'),
  ]);
});

t.test('no more references than citations: nothing counts as retrieved', async (t) => {
  const d = insightDigest({
    ...answer,
    discovered: [],
    referenceList: refs('https://a.example/', 'https://b.example/'),
  });
  t.strictSame(d.slice(2), [0, 2, 0, 0]);
});

t.test(
  'an answer naming the first group: its entries only (its sources count by citation)',
  async (t) => {
    const user = { ...answer, mentions: [mention('Acme', 1), ...answer.mentions.slice(1)] };
    t.equal(roleOf(user), 'user');
    t.strictSame(insightDigest(user), [...insightDigest(answer).slice(0, 13).fill(0, 1, 2), 0]);
  },
);

t.test('roles: user, competitor, neither', async (t) => {
  t.equal(roleOf(answer), 'competitor', 'another group named');
  t.equal(roleOf({ discovered: answer.discovered }), 'competitor', 'no groups, a discovered brand');
  t.equal(roleOf({ mentions: [mention('Acme', 0), mention('Beta', 0)] }), null);
  t.equal(roleOf({}), null);
});

t.test('an answer with nothing: a digest all the same', async (t) => {
  t.strictSame(insightDigest({}), [DIGEST_VERSION, 0, 0, 0, 0, 0]);
});

t.test('one reader over many answers gives what a reader per answer gives', async (t) => {
  const reader = new DigestReader();
  const answers = [answer, { ...answer, discovered: answer.discovered.slice(1) }, answer];
  t.strictSame(
    answers.map((a) => reader.digest(a)),
    answers.map((a) => insightDigest(a)),
  );
});

t.test(
  'storedDigest: only a digest of this version made from lists of these lengths',
  async (t) => {
    const d = insightDigest(answer);
    t.equal(storedDigest({ ...answer, insightDigest: d }), d);
    t.equal(storedDigest(answer), null, 'none stored');
    t.equal(storedDigest({ ...answer, insightDigest: null }), null);
    t.equal(storedDigest({ ...answer, insightDigest: [DIGEST_VERSION + 1, ...d.slice(1)] }), null);
    t.equal(
      storedDigest({ ...answer, discovered: answer.discovered.slice(1), insightDigest: d }),
      null,
      'discovered changed since',
    );
    t.equal(
      storedDigest({ ...answer, referenceList: [], insightDigest: d }),
      null,
      'references changed since',
    );
  },
);
