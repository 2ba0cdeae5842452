import t from 'tap';
import type { Reference } from '../../../services/shared/contracts/answer.js';
import type { DiscoveredEntry, Mention } from '../../../services/shared/contracts/brand.js';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { toStored, visibilityWith } from '../../../services/shared/brand/stored-insights.js';
import { insightDigest } from '../../../services/shared/brand/insight-digest.js';
import {
  visibilityOf as visibilityOfInputs,
  type VisibilityInput,
} from '../../../services/shared/brand/visibility.js';
import type { KeywordGroup, Visibility } from '../../../services/shared/contracts/brand.js';
import { benchGroups, benchSubTasks } from '../../../bench/brand/fixture.js';

/**
 * Every case runs twice: the sub tasks as stored before digests (the digest
 * made as they are read) and as recorded now, each with its stored
 * `insightDigest`; both must give the same visibility, and so must the
 * read of a final task with the insights stored at its finish.
 */
let checks = 0;
function visibilityOf(groups: readonly KeywordGroup[], inputs: VisibilityInput[]): Visibility {
  const asBefore = visibilityOfInputs(
    groups,
    inputs.map(({ insightDigest: _, ...s }) => s),
  );
  const recorded = visibilityOfInputs(
    groups,
    inputs.map((s) => ({ ...s, insightDigest: insightDigest(s) })),
  );
  if (JSON.stringify(recorded) !== JSON.stringify(asBefore)) {
    throw new Error('stored digests and digests made when read give different insights');
  }
  // A final task reads the insights stored when it finished: the same visibility.
  const final = visibilityWith(groups, inputs, JSON.parse(JSON.stringify(toStored(recorded))));
  if (JSON.stringify(final) !== JSON.stringify(recorded)) {
    throw new Error("a final task's stored insights give another visibility");
  }
  checks++;
  return recorded;
}

const groups = keywordGroups(['Acme|acme.com', 'Beta|beta.io']);

/** Mentions of Acme and Beta by count. */
const named = (acme: number, beta: number): Mention[] =>
  (
    [
      ['Acme', acme],
      ['Beta', beta],
    ] as const
  ).map(([keyword, count]) => ({
    keyword,
    count,
    firstIndex: count ? 0 : null,
    position: count ? 1 : null,
    groupRank: count ? 1 : null,
    inReasoning: false,
    inReferences: false,
    inCitations: false,
  }));

const refs = (...urls: string[]): Reference[] =>
  urls.map((url, i) => ({ index: i + 1, title: `Title of ${url}`, url, site: '', icon: '' }));

const found = (...entries: [string, number][]): DiscoveredEntry[] =>
  entries.map(([name, position]) => ({ name, position }));

let id = 0;
const sub = (over: Partial<VisibilityInput>): VisibilityInput => ({
  subTaskId: `s${String(++id).padStart(2, '0')}`,
  platform: 'kimi',
  mode: 'standard',
  status: 'completed',
  prompt: 'Best CRM?',
  mentions: named(0, 0),
  ...over,
});

t.test('discovered brands: merged by key, share, positions, places, one example', async (t) => {
  id = 0;
  const inputs = [
    sub({ channel: 'api', discovered: found(['Initech', 1], ['Hooli', 3]) }),
    sub({ channel: 'web', discovered: found(['**initech**', 2]), prompt: 'CRM for ten?' }),
    sub({ channel: 'web', discovered: found(['INITECH', 4]) }),
    sub({ channel: 'web', discovered: [] }),
    sub({ channel: 'web', status: 'failed', discovered: found(['Umbrella', 1]) }),
    sub({ platform: 'deepseek', discovered: found(['Initech', 1]), prompt: 'Cheapest CRM?' }),
  ];
  const v = visibilityOf(groups, inputs);
  t.same(
    v.discovered.map((d) => [d.name, d.answers, d.share, d.averagePosition, d.bestPosition]),
    [
      ['Initech', 4, 4 / 5, 2, 1],
      ['Hooli', 1, 1 / 5, 3, 3],
    ],
    'a failed sub task is no answer; spellings merge, the most written one names it',
  );
  t.same(v.discovered[0]!.places, [
    { platform: 'deepseek', answers: 1, share: 1 },
    { platform: 'kimi', channel: 'api', answers: 1, share: 1 },
    { platform: 'kimi', channel: 'web', answers: 2, share: 2 / 3 },
  ]);
  t.same(v.discovered[0]!.example, { subTaskId: 's01', platform: 'kimi', prompt: 'Best CRM?' });
  const reversed = visibilityOf(groups, [...inputs].reverse());
  t.same(reversed.discovered, v.discovered, 'the order sub tasks are read in does not matter');
});

t.test('citation opportunities: ranked by competitor answers without the user', async (t) => {
  id = 0;
  const v = visibilityOf(groups, [
    // Beta named, Acme not: an opportunity for every cited domain.
    sub({
      mentions: named(0, 2),
      citationList: refs('https://reviews.example/a', 'https://beta.io/'),
    }),
    sub({
      mentions: named(0, 1),
      prompt: 'CRM for ten?',
      citationList: refs('https://www.reviews.example/b'),
      // Retrieved, not cited: the platform separates them.
      referenceList: refs('https://www.reviews.example/b', 'https://forum.example/t/1'),
    }),
    // Only a discovered brand: still a competitor.
    sub({
      platform: 'deepseek',
      discovered: found(['Initech', 1]),
      citationList: refs('https://reviews.example/a'),
    }),
    // Acme named: the contrast, not an opportunity.
    sub({ mentions: named(1, 1), citationList: refs('https://reviews.example/c') }),
    // Nobody named: nothing.
    sub({ citationList: refs('https://quiet.example/') }),
  ]);
  t.same(
    v.opportunities.map((o) => [o.domain, o.tag, o.answers, o.userAnswers, o.retrievedAnswers]),
    [
      ['reviews.example', 'other', 3, 1, 0],
      ['beta.io', 'competitor', 1, 0, 0],
      ['forum.example', 'other', 0, 0, 1],
    ],
  );
  const [reviews, beta, forum] = v.opportunities;
  t.same(reviews!.pages, [
    { url: 'https://reviews.example/a', title: 'Title of https://reviews.example/a' },
    { url: 'https://www.reviews.example/b', title: 'Title of https://www.reviews.example/b' },
  ]);
  t.same(reviews!.competitors, ['Beta', 'Initech']);
  t.same(reviews!.prompts, ['Best CRM?', 'CRM for ten?']);
  t.same(reviews!.places, [{ platform: 'deepseek' }, { platform: 'kimi' }]);
  t.equal(beta!.keyword, 'Beta');
  t.same(forum!.retrieved, [
    { url: 'https://forum.example/t/1', title: 'Title of https://forum.example/t/1' },
  ]);
  t.same(forum!.pages, []);
});

t.test('without groups every discovered brand is a competitor', async (t) => {
  id = 0;
  const v = visibilityOf(
    [],
    [
      sub({
        mentions: [],
        discovered: found(['Hooli', 1]),
        citationList: refs('https://x.example/'),
      }),
    ],
  );
  t.same(
    v.opportunities.map((o) => [o.domain, o.answers, o.competitors]),
    [['x.example', 1, ['Hooli']]],
  );
  t.same(
    v.discovered.map((d) => d.name),
    ['Hooli'],
  );
});

t.test('at most 50 discovered brands and 30 domains, most first', async (t) => {
  id = 0;
  const inputs = Array.from({ length: 60 }, (_, i) =>
    sub({
      discovered: found(
        ...Array.from({ length: i + 1 }, (_, k): [string, number] => [`Brand${k}`, k + 1]),
      ),
      citationList: refs(
        ...Array.from({ length: (i % 40) + 1 }, (_, k) => `https://d${k}.example/`),
      ),
    }),
  );
  const v = visibilityOf(groups, inputs);
  t.equal(v.discovered.length, 50);
  t.equal(v.discovered[0]!.name, 'Brand0');
  t.equal(v.discovered[0]!.answers, 60);
  t.equal(v.opportunities.length, 30);
  t.equal(v.opportunities[0]!.domain, 'd0.example');
});

t.test(
  'every case above gave the same insights with stored digests, without, and as stored at the finish',
  async (t) => {
    t.equal(checks, 5);
  },
);

t.test('the benchmark task: stored digests, none, a mix and stale ones sum alike', async (t) => {
  const groups = benchGroups().slice(0, 5);
  const recorded = benchSubTasks(groups, 600);
  t.ok(
    recorded.every((s) => Array.isArray(s.insightDigest)),
    'answerBrandFields makes the digest',
  );
  const v = visibilityOfInputs(groups, recorded);
  t.ok(v.discovered.length > 0 && v.opportunities.length > 0);
  const none = recorded.map(({ insightDigest: _, ...s }) => s);
  t.strictSame(visibilityOfInputs(groups, none), v, 'answers stored before digests');
  const mixed = recorded.map((s, i) => (i % 2 ? s : none[i]!));
  t.strictSame(visibilityOfInputs(groups, mixed), v, 'old and new answers in one task');
  const stale = recorded.map((s) => ({
    ...s,
    // Another version, or a digest of other lists: made again when read.
    insightDigest: s.platform === 'kimi' ? [99, ...s.insightDigest!.slice(1)] : [1, 0, 99, 0, 0, 0],
  }));
  t.strictSame(visibilityOfInputs(groups, stale), v, 'a digest that does not fit is not used');
});
