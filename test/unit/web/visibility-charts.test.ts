import t from 'tap';
import { chartGaps, perKeyword, topDomains } from '../../../web/src/visibility-charts.js';
import type { Visibility } from '../../../web/src/types.js';

const row = (keyword: string, platform: string, channel: 'api' | 'web' | undefined, n: number) => ({
  keyword,
  platform,
  ...(channel ? { channel } : {}),
  answers: 2,
  mentionRate: n,
  averagePosition: n === 0 ? null : 1 + n,
  bestPosition: n === 0 ? null : 1,
  top1Share: 0,
  top3Share: n / 4,
  averageGroupRank: n === 0 ? null : 1,
  bestGroupRank: n === 0 ? null : 1,
  shareOfVoice: n / 2,
  citationShare: 0,
});

const v: Visibility = {
  keywords: ['Acme', 'Globex'],
  groups: [
    { keyword: 'Acme', aliases: ['Acme'], domains: [] },
    { keyword: 'Globex', aliases: ['Globex'], domains: [] },
  ],
  rows: [
    row('Acme', 'sandbox', 'api', 0.5),
    row('Acme', 'sandbox', 'web', 1),
    row('Globex', 'sandbox', 'api', 0),
    row('Globex', 'sandbox', 'web', 0.25),
    row('Acme', 'kimi', undefined, 1),
  ],
  domains: [
    {
      platform: 'sandbox',
      top: [
        { domain: 'acme.com', count: 3, tag: 'owned', keyword: 'Acme' },
        { domain: 'b.example', count: 1, tag: 'other' },
      ],
    },
    {
      platform: 'kimi',
      top: [
        { domain: 'a.example', count: 1, tag: 'other' },
        { domain: 'b.example', count: 2, tag: 'other' },
        { domain: 'globex.com', count: 1, tag: 'competitor', keyword: 'Globex' },
      ],
    },
  ],
  discovered: [],
  opportunities: [],
};

t.test('one dataset per keyword over the platform columns; rates in percent', async (t) => {
  const rate = perKeyword(v, 'mentionRate');
  t.same(rate.labels, ['sandbox · api', 'sandbox · web', 'kimi']);
  t.same(
    rate.datasets.map((d) => [d.label, d.data]),
    [
      ['Acme', [50, 100, 100]],
      ['Globex', [0, 25, null]],
    ],
  );
  t.same(
    perKeyword(v, 'top3Share').datasets[1]!.data,
    [0, 6.25, null],
    'the top-3 share in percent: taller is better',
  );
  t.same(perKeyword(v, 'shareOfVoice').datasets[0]!.data, [25, 50, 50]);
});

t.test('a column per mode that ran, where the visibility splits by mode', async (t) => {
  const byMode: Visibility = {
    ...v,
    rows: [
      { ...row('Acme', 'deepseek', 'web', 1), mode: 'standard' },
      { ...row('Acme', 'deepseek', 'web', 0.5), mode: 'reasoning' },
      row('Acme', 'deepseek', 'api', 0),
      { ...row('Acme', 'kimi', undefined, 0.25), mode: 'search' },
      row('Acme', 'qwen', undefined, 1),
    ],
  };
  const rate = perKeyword(byMode, 'mentionRate');
  t.same(rate.labels, [
    'deepseek · web · standard',
    'deepseek · web · reasoning',
    'deepseek · api',
    'kimi · search',
    'qwen',
  ]);
  t.same(rate.datasets[0]!.data, [100, 50, 0, 25, 100]);
});

t.test('cited domains summed over platforms, most first, coloured by tag', async (t) => {
  const d = topDomains(v, 3);
  t.same(d.labels, ['acme.com', 'b.example', 'a.example']);
  t.same(d.datasets[0]!.data, [3, 3, 1]);
  t.same(d.datasets[0]!.backgroundColor, ['#1f7a4d', '#7d8a97', '#7d8a97']);
});

t.test('an empty chart says why: no answer, no mention, no cited source', async (t) => {
  t.same(chartGaps(v), { keywords: null, domains: null }, 'mentions and citations: drawn');
  const unmentioned = {
    ...v,
    rows: v.rows.map((r) => ({
      ...r,
      mentionRate: 0,
      averagePosition: null,
      bestPosition: null,
      top1Share: 0,
      top3Share: 0,
    })),
  };
  t.same(chartGaps(unmentioned), { keywords: 'noMentionsYet', domains: null });
  t.same(chartGaps({ ...unmentioned, domains: [{ platform: 'sandbox', top: [] }] }), {
    keywords: 'noMentionsYet',
    domains: 'noCitationsYet',
  });
  const unanswered = { ...v, rows: v.rows.map((r) => ({ ...r, answers: 0, mentionRate: 0 })) };
  t.same(chartGaps(unanswered), { keywords: 'noAnswersYet', domains: 'noAnswersYet' });
  t.same(chartGaps({ ...v, rows: [], domains: [] }), {
    keywords: 'noAnswersYet',
    domains: 'noAnswersYet',
  });
});
