import t from 'tap';
import type { Reference } from '../../../services/shared/contracts/answer.js';
import type { Mention } from '../../../services/shared/contracts/brand.js';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { visibilityOf, type VisibilityInput } from '../../../services/shared/brand/visibility.js';

const groups = keywordGroups(['Acme|acme.com', 'Beta|beta.io']);

/** Mentions of Acme and Beta: [count, place, inCitations] each; the place is both position and group rank. */
function mentions(
  acme: [number, number | null, boolean],
  beta: [number, number | null, boolean],
): Mention[] {
  return (
    [
      ['Acme', acme],
      ['Beta', beta],
    ] as const
  ).map(([keyword, [count, place, inCitations]]) => ({
    keyword,
    count,
    firstIndex: count ? 0 : null,
    position: place,
    groupRank: place,
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
      mode: 'standard',
      channel: 'api',
      status: 'completed',
      mentions: mentions([2, 1, true], [1, 2, false]),
      citationList: cite('https://www.acme.com/a', 'https://x.com/'),
    },
    {
      platform: 'deepseek',
      mode: 'standard',
      channel: 'api',
      status: 'completed',
      mentions: mentions([0, null, false], [3, 1, true]),
      citationList: cite('https://beta.io/', 'https://acme.com/b'),
    },
    {
      platform: 'deepseek',
      mode: 'standard',
      channel: 'api',
      status: 'failed',
      mentions: mentions([9, 1, true], [0, null, false]),
      citationList: cite('https://ignored.com/'),
    },
    { platform: 'deepseek', mode: 'standard', channel: 'web', status: 'timeout' },
    // kimi on the web only
    {
      platform: 'kimi',
      mode: 'standard',
      channel: 'web',
      status: 'completed',
      mentions: mentions([1, 2, false], [1, 1, false]),
      citationList: cite('https://b.com/', 'https://a.com/', 'https://b.com/x'),
    },
    { platform: 'kimi', mode: 'standard', channel: 'web', status: 'completed', mentions: null },
    {
      platform: 'deepseek',
      mode: 'standard',
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
      averagePosition: 1,
      bestPosition: 1,
      top1Share: 0.5,
      top3Share: 0.5,
      averageGroupRank: 1,
      bestGroupRank: 1,
      shareOfVoice: 2 / 6,
      citationShare: 0.5,
    },
    {
      keyword: 'Acme',
      platform: 'deepseek',
      channel: 'web',
      answers: 1,
      mentionRate: 1,
      averagePosition: 1,
      bestPosition: 1,
      top1Share: 1,
      top3Share: 1,
      averageGroupRank: 1,
      bestGroupRank: 1,
      shareOfVoice: 1,
      citationShare: 0,
    },
    {
      keyword: 'Acme',
      platform: 'kimi',
      answers: 2,
      mentionRate: 0.5,
      averagePosition: 2,
      bestPosition: 2,
      top1Share: 0,
      top3Share: 0.5,
      averageGroupRank: 2,
      bestGroupRank: 2,
      shareOfVoice: 0.5,
      citationShare: 0,
    },
    {
      keyword: 'Beta',
      platform: 'deepseek',
      channel: 'api',
      answers: 2,
      mentionRate: 1,
      averagePosition: 1.5,
      bestPosition: 1,
      top1Share: 0.5,
      top3Share: 1,
      averageGroupRank: 1.5,
      bestGroupRank: 1,
      shareOfVoice: 4 / 6,
      citationShare: 0.5,
    },
    {
      keyword: 'Beta',
      platform: 'deepseek',
      channel: 'web',
      answers: 1,
      mentionRate: 0,
      averagePosition: null,
      bestPosition: null,
      top1Share: 0,
      top3Share: 0,
      averageGroupRank: null,
      bestGroupRank: null,
      shareOfVoice: 0,
      citationShare: 0,
    },
    {
      keyword: 'Beta',
      platform: 'kimi',
      answers: 2,
      mentionRate: 0.5,
      averagePosition: 1,
      bestPosition: 1,
      top1Share: 0.5,
      top3Share: 0.5,
      averageGroupRank: 1,
      bestGroupRank: 1,
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

t.test(
  'position and group rank are tallied apart; top-1 and top-3 shares count positions',
  async (t) => {
    const at = (position: number | null, groupRank: number | null): Mention[] => [
      {
        keyword: 'Acme',
        count: position === null ? 0 : 1,
        firstIndex: null,
        position,
        groupRank,
        inReasoning: false,
        inReferences: false,
        inCitations: false,
      },
    ];
    const v = visibilityOf(groups, [
      // Recommended second after a brand the user did not type: first among the groups.
      { platform: 'p', mode: 'standard', status: 'completed', mentions: at(2, 1) },
      { platform: 'p', mode: 'standard', status: 'completed', mentions: at(1, 1) },
      { platform: 'p', mode: 'standard', status: 'completed', mentions: at(5, 2) },
      { platform: 'p', mode: 'standard', status: 'completed', mentions: at(null, null) },
    ]);
    t.match(v.rows[0], {
      keyword: 'Acme',
      answers: 4,
      mentionRate: 0.75,
      averagePosition: 8 / 3,
      bestPosition: 1,
      top1Share: 0.25,
      top3Share: 0.5,
      averageGroupRank: 4 / 3,
      bestGroupRank: 1,
    });
  },
);

t.test(
  'rows in one order whatever order the sub tasks come in: group, platform name, channel',
  async (t) => {
    const inputs: VisibilityInput[] = [
      {
        platform: 'sandbox-cn',
        mode: 'standard',
        channel: 'web',
        status: 'completed',
        mentions: mentions([1, 1, false], [0, null, false]),
      },
      {
        platform: 'sandbox',
        mode: 'standard',
        channel: 'web',
        status: 'completed',
        mentions: mentions([1, 1, false], [0, null, false]),
      },
      {
        platform: 'sandbox-cn',
        mode: 'standard',
        channel: 'api',
        status: 'completed',
        mentions: null,
      },
      { platform: 'deepseek', mode: 'standard', status: 'failed' },
    ];
    const expected = [
      ['Acme', 'deepseek', undefined],
      ['Acme', 'sandbox', undefined],
      ['Acme', 'sandbox-cn', 'api'],
      ['Acme', 'sandbox-cn', 'web'],
      ['Beta', 'deepseek', undefined],
      ['Beta', 'sandbox', undefined],
      ['Beta', 'sandbox-cn', 'api'],
      ['Beta', 'sandbox-cn', 'web'],
    ];
    for (const order of [inputs, [...inputs].reverse()]) {
      const v = visibilityOf(groups, order);
      t.same(
        v.rows.map((r) => [r.keyword, r.platform, r.channel]),
        expected,
      );
      t.same(
        v.domains.map((d) => [d.platform, d.channel]),
        expected.slice(0, 4).map(([, platform, channel]) => [platform, channel]),
      );
    }
  },
);

t.test('a silent fallback counts under the mode that ran, in a row of its own', async (t) => {
  const v = visibilityOf(groups, [
    {
      platform: 'deepseek',
      channel: 'web',
      mode: 'reasoning_search',
      effectiveMode: 'reasoning_search',
      status: 'completed',
      mentions: mentions([1, 1, true], [0, null, false]),
      citationList: cite('https://acme.com/a'),
    },
    {
      platform: 'deepseek',
      channel: 'web',
      mode: 'reasoning_search',
      effectiveMode: 'standard',
      status: 'completed',
      mentions: mentions([0, null, false], [2, 1, false]),
      citationList: cite('https://x.com/'),
    },
    // Stored before effective modes were recorded: it ran as asked.
    {
      platform: 'deepseek',
      channel: 'web',
      mode: 'reasoning_search',
      status: 'completed',
      mentions: mentions([1, 2, false], [0, null, false]),
    },
  ]);
  t.same(
    v.rows.map((r) => [r.keyword, r.platform, r.channel, r.mode, r.answers, r.mentionRate]),
    [
      ['Acme', 'deepseek', undefined, 'standard', 1, 0],
      ['Acme', 'deepseek', undefined, 'reasoning_search', 2, 1],
      ['Beta', 'deepseek', undefined, 'standard', 1, 1],
      ['Beta', 'deepseek', undefined, 'reasoning_search', 2, 0],
    ],
  );
  t.same(v.domains, [
    { platform: 'deepseek', mode: 'standard', top: [{ domain: 'x.com', count: 1, tag: 'other' }] },
    {
      platform: 'deepseek',
      mode: 'reasoning_search',
      top: [{ domain: 'acme.com', count: 1, tag: 'owned', keyword: 'Acme' }],
    },
  ]);
});

t.test(
  'one mode on a channel: no mode field; a sub task not answered makes only its requested mode present',
  async (t) => {
    const one = visibilityOf(groups, [
      { platform: 'kimi', mode: 'search', effectiveMode: 'search', status: 'completed' },
      { platform: 'kimi', mode: 'search', effectiveMode: null, status: 'completed' },
      { platform: 'kimi', mode: 'search', status: 'failed' },
    ]);
    t.same(
      one.rows.map((r) => Object.keys(r).slice(0, 3)),
      [
        ['keyword', 'platform', 'answers'],
        ['keyword', 'platform', 'answers'],
      ],
    );
    t.same(one.domains, [{ platform: 'kimi', top: [] }]);
    t.equal(one.rows[0]!.answers, 2);

    const split = visibilityOf(groups, [
      { platform: 'kimi', mode: 'standard', status: 'completed' },
      { platform: 'kimi', mode: 'search', effectiveMode: 'standard', status: 'timeout' },
    ]);
    t.same(
      split.domains.map((d) => [d.mode, split.rows.find((r) => r.mode === d.mode)!.answers]),
      [
        ['standard', 1],
        ['search', 0],
      ],
    );
  },
);

t.test('rows by group, platform, channel (api first), then mode in MODES order', async (t) => {
  const inputs: VisibilityInput[] = [
    { platform: 'sandbox', channel: 'web', mode: 'reasoning', status: 'completed' },
    { platform: 'sandbox', channel: 'api', mode: 'reasoning_search', status: 'failed' },
    { platform: 'sandbox', channel: 'api', mode: 'search', status: 'completed' },
    {
      platform: 'sandbox',
      channel: 'api',
      mode: 'reasoning',
      effectiveMode: 'standard',
      status: 'completed',
    },
    { platform: 'deepseek', channel: 'api', mode: 'search', status: 'completed' },
    { platform: 'deepseek', channel: 'api', mode: 'reasoning', status: 'completed' },
  ];
  const places = [
    ['deepseek', undefined, 'reasoning'],
    ['deepseek', undefined, 'search'],
    ['sandbox', 'api', 'standard'],
    ['sandbox', 'api', 'search'],
    ['sandbox', 'api', 'reasoning_search'],
    ['sandbox', 'web', undefined],
  ];
  for (const order of [inputs, [...inputs].reverse()]) {
    const v = visibilityOf(groups, order);
    t.same(
      v.rows.map((r) => [r.keyword, r.platform, r.channel, r.mode]),
      ['Acme', 'Beta'].flatMap((keyword) => places.map((p) => [keyword, ...p])),
    );
    t.same(
      v.domains.map((d) => [d.platform, d.channel, d.mode]),
      places,
    );
  }
});

t.test('zero answers: rates 0, ranks null; a sub task without channel is an api one', async (t) => {
  const v = visibilityOf(groups, [
    { platform: 'qwen', mode: 'standard', status: 'failed' },
    { platform: 'qwen', mode: 'standard', channel: 'api', status: 'error' },
  ]);
  t.same(v.rows, [
    {
      keyword: 'Acme',
      platform: 'qwen',
      answers: 0,
      mentionRate: 0,
      averagePosition: null,
      bestPosition: null,
      top1Share: 0,
      top3Share: 0,
      averageGroupRank: null,
      bestGroupRank: null,
      shareOfVoice: 0,
      citationShare: 0,
    },
    {
      keyword: 'Beta',
      platform: 'qwen',
      answers: 0,
      mentionRate: 0,
      averagePosition: null,
      bestPosition: null,
      top1Share: 0,
      top3Share: 0,
      averageGroupRank: null,
      bestGroupRank: null,
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
    discovered: [],
    opportunities: [],
  });
  const v = visibilityOf(
    [],
    [
      {
        platform: 'p',
        mode: 'standard',
        status: 'completed',
        citationList: cite('https://acme.com/'),
      },
    ],
  );
  t.same(v, {
    keywords: [],
    groups: [],
    rows: [],
    domains: [{ platform: 'p', top: [{ domain: 'acme.com', count: 1, tag: 'other' }] }],
    discovered: [],
    opportunities: [],
  });
});

t.test('top 20 domains, most cited first, ties by name; bad URLs are skipped', async (t) => {
  const urls: string[] = ['mailto:x@y.z', 'not a url'];
  for (let d = 0; d < 25; d++)
    for (let k = 0; k <= d % 5; k++) urls.push(`https://d${String(d).padStart(2, '0')}.com/${k}`);
  const v = visibilityOf(groups, [
    { platform: 'p', mode: 'standard', status: 'completed', citationList: cite(...urls) },
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
    {
      platform: 'p',
      mode: 'standard',
      status: 'completed',
      mentions: [beta!, { ...acme!, keyword: 'Gone' }, acme!],
    },
  ]);
  t.same(
    v.rows.map((r) => [
      r.keyword,
      r.mentionRate,
      r.averagePosition,
      r.shareOfVoice,
      r.citationShare,
    ]),
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
    mode: 'standard',
    channel: i % 2 ? 'web' : 'api',
    status: i % 10 ? 'completed' : 'failed',
    mentions: many.map((g, k) => ({
      keyword: g.keyword,
      count: (i + k) % 3,
      firstIndex: null,
      position: (i + k) % 3 ? 2 + ((i + k) % 4) : null,
      groupRank: (i + k) % 3 ? 1 + ((i + k) % 4) : null,
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
