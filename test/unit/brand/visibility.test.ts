import t from 'tap';
import type { Reference } from '../../../services/shared/contracts/answer.js';
import type { Mention } from '../../../services/shared/contracts/brand.js';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { visibilityOf, type VisibilityInput } from '../../../services/shared/brand/visibility.js';

const groups = keywordGroups(['Acme|acme.com', 'Beta|beta.io']);

/** Mentions of Acme and Beta: [count, rank, inCitations] each. */
function mentions(
  acme: [number, number | null, boolean],
  beta: [number, number | null, boolean],
): Mention[] {
  return (
    [
      ['Acme', acme],
      ['Beta', beta],
    ] as const
  ).map(([keyword, [count, rank, inCitations]]) => ({
    keyword,
    count,
    firstIndex: count ? 0 : null,
    rank,
    inReasoning: false,
    inReferences: inCitations,
    inCitations,
  }));
}

const cite = (...urls: string[]): Reference[] =>
  urls.map((url, i) => ({ index: i + 1, title: '', url, site: '', icon: '' }));

t.test('rows per group × platform; channels split only where a platform has both', async (t) => {
  const subTasks: VisibilityInput[] = [
    // deepseek on both channels
    {
      platform: 'deepseek',
      channel: 'api',
      status: 'completed',
      mentions: mentions([2, 1, true], [1, 2, false]),
      citationList: cite('https://www.acme.com/a', 'https://x.com/'),
    },
    {
      platform: 'deepseek',
      channel: 'api',
      status: 'completed',
      mentions: mentions([0, null, false], [3, 1, true]),
      citationList: cite('https://beta.io/', 'https://acme.com/b'),
    },
    {
      platform: 'deepseek',
      channel: 'api',
      status: 'failed',
      mentions: mentions([9, 1, true], [0, null, false]),
      citationList: cite('https://ignored.com/'),
    },
    { platform: 'deepseek', channel: 'web', status: 'timeout' },
    // kimi on the web only
    {
      platform: 'kimi',
      channel: 'web',
      status: 'completed',
      mentions: mentions([1, 2, false], [1, 1, false]),
      citationList: cite('https://b.com/', 'https://a.com/', 'https://b.com/x'),
    },
    { platform: 'kimi', channel: 'web', status: 'completed', mentions: null },
    {
      platform: 'deepseek',
      channel: 'web',
      status: 'completed',
      mentions: mentions([1, 1, false], [0, null, false]),
      citationList: [],
    },
  ];
  const v = visibilityOf(groups, subTasks);
  t.same(v.keywords, ['Acme', 'Beta']);
  t.same(v.rows, [
    {
      keyword: 'Acme',
      platform: 'deepseek',
      channel: 'api',
      answers: 2,
      mentionRate: 0.5,
      averageRank: 1,
      bestRank: 1,
      top1Share: 0.5,
      shareOfVoice: 2 / 6,
      citationShare: 0.5,
    },
    {
      keyword: 'Acme',
      platform: 'deepseek',
      channel: 'web',
      answers: 1,
      mentionRate: 1,
      averageRank: 1,
      bestRank: 1,
      top1Share: 1,
      shareOfVoice: 1,
      citationShare: 0,
    },
    {
      keyword: 'Acme',
      platform: 'kimi',
      answers: 2,
      mentionRate: 0.5,
      averageRank: 2,
      bestRank: 2,
      top1Share: 0,
      shareOfVoice: 0.5,
      citationShare: 0,
    },
    {
      keyword: 'Beta',
      platform: 'deepseek',
      channel: 'api',
      answers: 2,
      mentionRate: 1,
      averageRank: 1.5,
      bestRank: 1,
      top1Share: 0.5,
      shareOfVoice: 4 / 6,
      citationShare: 0.5,
    },
    {
      keyword: 'Beta',
      platform: 'deepseek',
      channel: 'web',
      answers: 1,
      mentionRate: 0,
      averageRank: null,
      bestRank: null,
      top1Share: 0,
      shareOfVoice: 0,
      citationShare: 0,
    },
    {
      keyword: 'Beta',
      platform: 'kimi',
      answers: 2,
      mentionRate: 0.5,
      averageRank: 1,
      bestRank: 1,
      top1Share: 0.5,
      shareOfVoice: 0.5,
      citationShare: 0,
    },
  ]);
  t.same(v.domains, [
    {
      platform: 'deepseek',
      channel: 'api',
      top: [
        { domain: 'acme.com', count: 2, tag: 'owned', keyword: 'Acme' },
        { domain: 'beta.io', count: 1, tag: 'competitor', keyword: 'Beta' },
        { domain: 'x.com', count: 1, tag: 'other' },
      ],
    },
    { platform: 'deepseek', channel: 'web', top: [] },
    {
      platform: 'kimi',
      top: [
        { domain: 'b.com', count: 2, tag: 'other' },
        { domain: 'a.com', count: 1, tag: 'other' },
      ],
    },
  ]);
});

t.test('zero answers: rates 0, ranks null; a sub task without channel is an api one', async (t) => {
  const v = visibilityOf(groups, [
    { platform: 'qwen', status: 'failed' },
    { platform: 'qwen', channel: 'api', status: 'error' },
  ]);
  t.same(v.rows, [
    {
      keyword: 'Acme',
      platform: 'qwen',
      answers: 0,
      mentionRate: 0,
      averageRank: null,
      bestRank: null,
      top1Share: 0,
      shareOfVoice: 0,
      citationShare: 0,
    },
    {
      keyword: 'Beta',
      platform: 'qwen',
      answers: 0,
      mentionRate: 0,
      averageRank: null,
      bestRank: null,
      top1Share: 0,
      shareOfVoice: 0,
      citationShare: 0,
    },
  ]);
  t.same(v.domains, [{ platform: 'qwen', top: [] }]);
});

t.test('no sub tasks, no groups', async (t) => {
  t.same(visibilityOf(groups, []), {
    keywords: ['Acme', 'Beta'],
    groups: [
      { keyword: 'Acme', aliases: ['Acme', 'acme.com'], domains: ['acme.com'] },
      { keyword: 'Beta', aliases: ['Beta', 'beta.io'], domains: ['beta.io'] },
    ],
    rows: [],
    domains: [],
  });
  const v = visibilityOf(
    [],
    [{ platform: 'p', status: 'completed', citationList: cite('https://acme.com/') }],
  );
  t.same(v, {
    keywords: [],
    groups: [],
    rows: [],
    domains: [{ platform: 'p', top: [{ domain: 'acme.com', count: 1, tag: 'other' }] }],
  });
});

t.test('top 20 domains, most cited first, ties by name; bad URLs are skipped', async (t) => {
  const urls: string[] = ['mailto:x@y.z', 'not a url'];
  for (let d = 0; d < 25; d++)
    for (let k = 0; k <= d % 5; k++) urls.push(`https://d${String(d).padStart(2, '0')}.com/${k}`);
  const v = visibilityOf(groups, [
    { platform: 'p', status: 'completed', citationList: cite(...urls) },
  ]);
  const top = v.domains[0]!.top;
  t.equal(top.length, 20);
  t.same(
    top.slice(0, 6).map((d) => [d.domain, d.count]),
    [
      ['d04.com', 5],
      ['d09.com', 5],
      ['d14.com', 5],
      ['d19.com', 5],
      ['d24.com', 5],
      ['d03.com', 4],
    ],
  );
  t.same(top.at(-1), { domain: 'd21.com', count: 2, tag: 'other' });
  t.notOk(
    top.some((d) => d.count === 1),
    'the 5 least cited are left out',
  );
});

t.test('mentions are matched to groups by keyword; unknown keywords are ignored', async (t) => {
  const [acme, beta] = mentions([1, 2, false], [2, 1, true]);
  const v = visibilityOf(groups, [
    { platform: 'p', status: 'completed', mentions: [beta!, { ...acme!, keyword: 'Gone' }, acme!] },
  ]);
  t.same(
    v.rows.map((r) => [r.keyword, r.mentionRate, r.averageRank, r.shareOfVoice, r.citationShare]),
    [
      ['Acme', 1, 2, 1 / 3, 0],
      ['Beta', 1, 1, 2 / 3, 1],
    ],
  );
});

t.test('2,500 sub tasks in one pass, quickly', async (t) => {
  const many = keywordGroups(Array.from({ length: 10 }, (_, i) => `Brand${i}|brand${i}.com`));
  const subTasks: VisibilityInput[] = Array.from({ length: 2500 }, (_, i) => ({
    platform: `p${i % 5}`,
    channel: i % 2 ? 'web' : 'api',
    status: i % 10 ? 'completed' : 'failed',
    mentions: many.map((g, k) => ({
      keyword: g.keyword,
      count: (i + k) % 3,
      firstIndex: null,
      rank: (i + k) % 3 ? 1 + ((i + k) % 4) : null,
      inReasoning: false,
      inReferences: false,
      inCitations: k % 2 === 0,
    })),
    citationList: cite(
      ...Array.from({ length: 8 }, (_, k) => `https://brand${(i + k) % 30}.com/p${k}`),
    ),
  }));
  let iterated = 0;
  const started = performance.now();
  const v = visibilityOf(
    many,
    (function* () {
      for (const s of subTasks) {
        iterated++;
        yield s;
      }
    })(),
  );
  const ms = performance.now() - started;
  t.equal(iterated, 2500, 'read once, from an iterable');
  t.equal(v.rows.length, 10 * 5 * 2);
  t.equal(
    v.rows.reduce((n, r) => n + r.answers, 0),
    2250 * 10,
  );
  t.ok(ms < 2000, `${ms.toFixed(1)} ms (a generous bound for a busy machine)`);
});
