import t from 'tap';
import {
  chartOptions,
  funnelChart,
  gapChart,
  keywordsOf,
  latestGaps,
  latestRates,
  slotsOf,
  trendChart,
} from '../../../web/src/monitor-charts.js';
import {
  changeScope,
  changeValues,
  keywordsOfRun,
  latestWithFigures,
  promptAcrossRegions,
  samplesText,
  scheduleText,
  shareTrend,
} from '../../../web/src/monitor-text.js';
import type {
  Change,
  GapSeries,
  Rate,
  Run,
  Series,
  TrendPoint,
} from '../../../web/src/monitor-types.js';

const rate = (value: number, lower: number, upper: number, n: number): Rate => ({
  value,
  lower,
  upper,
  n,
});
const NONE: Rate = { value: null, lower: null, upper: null, n: 0 };

/** A trend point as the contract shapes it; only what a test varies is given. */
const point = (slot: number, mentionRate: Rate, extra: Partial<TrendPoint> = {}): TrendPoint => ({
  runId: `run-${slot}`,
  slot,
  finishedAt: slot + 60_000,
  mentionRate,
  position: null,
  shareOfVoice: null,
  citationShare: null,
  topDomains: [],
  stability: null,
  funnel: {
    n: 0,
    inReasoning: 0,
    inReferences: 0,
    inCitations: 0,
    inAnswer: 0,
    consideredButDropped: NONE,
  },
  models: ['m-1'],
  modelChanged: false,
  samples: { cells: 1, asked: mentionRate.n, meanPerCell: mentionRate.n },
  ...extra,
});

const series: Series[] = [
  {
    group: 'sandbox',
    keyword: 'Acme',
    points: [
      point(1000, rate(0.5, 0.2, 0.8, 6)),
      point(2000, rate(0.75, 0.41, 0.93, 8), { models: ['m-2'], modelChanged: true }),
    ],
  },
  { group: 'kimi', keyword: 'Acme', points: [point(3000, NONE)] },
  { group: 'sandbox', keyword: 'Globex', points: [point(1000, rate(0, 0, 0.39, 6))] },
];

t.test('the trend: per group a band (upper, lower filled to it) and the line', async (t) => {
  t.same(slotsOf(series), [1000, 2000, 3000], 'one time axis over every series');
  t.same(keywordsOf(series), ['Acme', 'Globex'], 'the monitored brand first');
  const chart = trendChart(series, 'Acme', (slot) => `t${slot}`, 'model now');
  t.same(chart.data.labels, ['t1000', 't2000', 't3000']);
  const [upper, lower, line, , , kimi] = chart.data.datasets;
  t.same(upper!.data, [80, 93, null], 'upper edge in percent, gaps where no run');
  t.same(lower!.data, [20, 41, null]);
  t.equal(lower!.fill, '-1', 'the lower edge fills up to the upper one');
  t.equal(upper!.label, '', 'band edges are left out of the legend');
  t.same(line!.data, [50, 75, null]);
  t.equal(line!.label, 'sandbox');
  t.same(line!.pointStyle, ['circle', 'triangle', 'circle'], 'a marker where the model changed');
  t.same(kimi!.data, [null, null, null], 'a rate over no answer is not drawn as 0');
  t.same(chart.tooltips[2], [
    'sandbox: 50% (20–80%, n = 6)',
    'sandbox: 75% (41–93%, n = 8) · model now: m-2',
    null,
  ]);
  t.same(chart.tooltips[0], [null, null, null], 'no tooltip on a band edge');
  t.same(chart.tooltips[5], [null, null, 'kimi: n = 0']);
  t.same(
    trendChart(series, 'Nobody', String, '').data.datasets,
    [],
    'a keyword without series: nothing to draw',
  );
});

t.test('the newest rate per group, which a single run cannot draw as a band', async (t) => {
  t.same(latestRates(series, 'Acme'), [
    { group: 'sandbox', rate: rate(0.75, 0.41, 0.93, 8) },
    { group: 'kimi', rate: NONE },
  ]);
  t.same(latestRates([{ group: 'x', keyword: 'Acme', points: [] }], 'Acme'), []);
});

t.test('the chart options hide the bands from legend and tooltip', async (t) => {
  const chart = trendChart(series, 'Acme', String, 'model now');
  const options = chartOptions<'line'>(chart.tooltips, { scales: { y: { min: 0, max: 100 } } });
  const legend = options.plugins!.legend!.labels!.filter!;
  const tooltip = options.plugins!.tooltip!;
  t.equal(legend({ text: '' } as never, chart.data as never), false);
  t.equal(legend({ text: 'sandbox' } as never, chart.data as never), true);
  t.equal(tooltip.filter!({ datasetIndex: 0, dataIndex: 0 } as never, 0, [], chart.data), false);
  t.equal(tooltip.filter!({ datasetIndex: 2, dataIndex: 1 } as never, 0, [], chart.data), true);
  t.same(options.scales, { y: { min: 0, max: 100 } }, 'the caller’s options kept');
});

t.test(
  'the funnel: the latest counted run per group, step shares and the dropped rate',
  async (t) => {
    const counted = (slot: number, n: number, steps: number[]) =>
      point(slot, rate(0.5, 0.2, 0.8, n), {
        funnel: {
          n,
          inReasoning: steps[0]!,
          inReferences: steps[1]!,
          inCitations: steps[2]!,
          inAnswer: steps[3]!,
          consideredButDropped: rate(0.25, 0.07, 0.59, n),
        },
      });
    const funnel = funnelChart(
      [
        {
          group: 'sandbox',
          keyword: 'Acme',
          points: [counted(1, 4, [4, 4, 4, 4]), counted(2, 8, [6, 4, 2, 4])],
        },
        { group: 'kimi', keyword: 'Acme', points: [point(1, NONE)] },
      ],
      'Acme',
      ['reasoning', 'retrieved', 'cited', 'answer'],
    );
    t.same(funnel.data.labels, ['reasoning', 'retrieved', 'cited', 'answer']);
    t.equal(funnel.data.datasets.length, 1, 'a group with no counted answer has no bars');
    t.same(funnel.data.datasets[0]!.data, [75, 50, 25, 50], 'the latest run, in percent of n');
    t.same(funnel.tooltips[0], [
      'sandbox: 6 of 8',
      'sandbox: 4 of 8',
      'sandbox: 2 of 8',
      'sandbox: 4 of 8',
    ]);
    t.same(funnel.dropped, [{ group: 'sandbox', rate: rate(0.25, 0.07, 0.59, 8) }]);
  },
);

t.test(
  'the API–web gap of one prompt: a band per platform, both rates in the tooltip and written out',
  async (t) => {
    const gaps: GapSeries[] = [
      {
        prompt: 1,
        platform: 'sandbox',
        keyword: 'Acme',
        points: [
          {
            runId: 'r1',
            slot: 1000,
            api: rate(0.6, 0.31, 0.83, 10),
            web: rate(0.4, 0.17, 0.69, 10),
            gap: { value: 0.2, lower: -0.2, upper: 0.52 },
          },
          {
            runId: 'r2',
            slot: 2000,
            api: rate(1, 0.72, 1, 10),
            web: rate(0.1, 0.02, 0.4, 10),
            gap: { value: 0.9, lower: 0.5, upper: 0.98 },
          },
        ],
      },
      { prompt: 1, platform: 'sandbox', keyword: 'Globex', points: [] },
      { prompt: 0, platform: 'sandbox', keyword: 'Acme', points: [] },
    ];
    const chart = gapChart(gaps, 1, 'Acme', String);
    t.same(chart.data.labels, ['1000', '2000']);
    t.same(
      chart.data.datasets.map((d) => d.data),
      [
        [52, 98],
        [-20, 50],
        [20, 90],
      ],
      'upper, lower, gap (API − web) in percentage points',
    );
    t.same(chart.tooltips[2], [
      'sandbox: +20 pp (−20 to +52) · API 60% (31–83%, n = 10) · web 40% (17–69%, n = 10)',
      'sandbox: +90 pp (+50 to +98) · API 100% (72–100%, n = 10) · web 10% (2–40%, n = 10)',
    ]);
    t.same(
      latestGaps(gaps, 1, 'Acme'),
      ['sandbox: +90 pp (+50 to +98) · API 100% (72–100%, n = 10) · web 10% (2–40%, n = 10)'],
      "the newest run's gap per platform, as its tooltip says it",
    );
    t.same(gapChart(gaps, 0, 'Acme', String).data.labels, [], 'a prompt without points: empty');
    t.same(latestGaps(gaps, 0, 'Acme'), [], 'and nothing written');
    t.same(latestGaps(gaps, 1, 'Globex'), [], 'another keyword: its own series');
  },
);

const cell = (prompt: string, channel: string, value: number, n: number) => ({
  prompt,
  platform: 'sandbox',
  channel,
  mode: 'search',
  samplesTaken: n,
  answered: n,
  ranOtherMode: 0,
  targetWidth: null,
  width: 0.5,
  callsSaved: 0,
  stability: 1,
  brands: [{ keyword: 'Acme', mentionRate: { value, lower: value / 2, upper: 1, n } }],
});
const region = (regionCode: string | null, cells: ReturnType<typeof cell>[] | null) => ({
  regionCode,
  taskId: '00000000-0000-4000-8000-000000000001',
  submitted: true,
  taskStatus: 'completed' as const,
  error: null,
  followUps: [],
  samplesTaken: 2,
  callsSaved: 0,
  cells,
});
const run = (runId: string, regions: ReturnType<typeof region>[]): Run => ({
  runId,
  monitorId: 'm',
  trigger: 'manual',
  slot: 1,
  status: 'finished',
  createdAt: 1,
  finishedAt: 2,
  samplesTaken: null,
  samplesSaved: null,
  regions,
});

t.test('one prompt per region and channel in the latest run with figures', async (t) => {
  const runs = [
    run('newest', [region('310100', null)]),
    run('figures', [
      region('310100', [
        cell('p1', 'api', 0.5, 4),
        cell('p1', 'web', 1, 4),
        cell('p2', 'api', 0, 4),
      ]),
      region('110100', [cell('p1', 'api', 0.25, 4)]),
    ]),
  ];
  const latest = latestWithFigures(runs)!;
  t.equal(latest.runId, 'figures', 'a run still without figures is passed over');
  t.same(keywordsOfRun(latest), ['Acme']);
  const compared = promptAcrossRegions(latest, 'p1', 'Acme');
  t.same(compared.columns, ['sandbox · api · search', 'sandbox · web · search']);
  t.same(compared.rows, [
    { region: '310100', rates: [rate(0.5, 0.25, 1, 4), rate(1, 0.5, 1, 4)] },
    { region: '110100', rates: [rate(0.25, 0.125, 1, 4), null] },
  ]);
  t.equal(latestWithFigures([runs[0]!]), undefined);
});

t.test('a change reads as where and how much', async (t) => {
  const change: Change = {
    id: 'c',
    monitorId: 'm',
    runId: 'r2',
    previousRunId: 'r1',
    slot: 2,
    detectedAt: 3,
    kind: 'brand_lost',
    scope: {
      level: 'cell',
      regionCode: '310100',
      platform: 'sandbox',
      channel: 'web',
      mode: 'search',
      prompt: 1,
    },
    keyword: 'Acme',
    domain: null,
    before: 0.9,
    after: 0.1,
    detail: '',
  };
  t.equal(changeScope(change, ['p0', 'p1']), '310100 · sandbox · web · search · “p1”');
  t.equal(changeValues(change), '90% → 10%', 'rates in percent');
  t.equal(changeValues({ ...change, kind: 'position_moved', before: 1, after: 3.25 }), '1 → 3.3');
  t.equal(changeValues({ ...change, kind: 'domain_added', before: null, after: null }), null);
  const group = {
    ...change.scope,
    level: 'group' as const,
    regionCode: null,
    channel: null,
    mode: null,
    prompt: null,
  };
  t.equal(changeScope({ ...change, scope: group }, []), 'sandbox');
  const run = { ...group, level: 'run' as const, platform: null };
  const found = { ...change, kind: 'discovered_new' as const, keyword: 'Initech', before: 0 };
  t.equal(changeScope({ ...found, scope: run }, [], 'whole run'), 'whole run');
  t.equal(changeValues({ ...found, after: 0.5 }), '0% → 50%', 'a discovered share in percent');
});

t.test("a discovered brand's shares run by run, the last five", async (t) => {
  const point = (value: number | null) => ({
    runId: 'r',
    slot: 1,
    finishedAt: 2,
    share: { value, lower: null, upper: null, n: value === null ? 0 : 4 },
    position: null,
  });
  t.equal(shareTrend([0, 0.25, 0.5].map(point)), '0% → 25% → 50%');
  t.equal(shareTrend([0, 0.1, 0.2, 0.3, 0.4, 0.5].map(point)), '10% → 20% → 30% → 40% → 50%');
  t.equal(shareTrend([point(null)]), '—');
});

t.test('schedule and samples as a brand team reads them', async (t) => {
  t.equal(
    scheduleText({ cron: '0 9 * * *', timezone: 'Europe/Berlin' }),
    '0 9 * * * (Europe/Berlin)',
  );
  t.equal(scheduleText({ everyMinutes: 60 }), 'every 60 min');
  t.equal(samplesText(3), '3');
  t.equal(samplesText({ min: 3, max: 8, targetWidth: 0.2 }), '3–8 (width ≤ 0.2)');
});
