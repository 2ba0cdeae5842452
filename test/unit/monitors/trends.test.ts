/**
 * Trends and change detection on crafted snapshots (services/monitors/trends/,
 * services/monitors/changes/): pooled figures and the funnel by hand, model
 * markers, the API–web gap against Newcombe's formula, and each change rule on
 * both sides of its threshold, CUSUM drift included.
 */
import t, { type Test } from 'tap';
import fc from 'fast-check';
import { TREND_GROUPS } from '../../../services/shared/contracts/monitor-trends.js';
import {
  emptyGroup,
  type CellSnapshot,
  type GroupCounts,
} from '../../../services/monitors/snapshot.js';
import { cellsOf, type RunFigures } from '../../../services/monitors/trends/runs.js';
import { buildTrends } from '../../../services/monitors/trends/series.js';
import { poolRun } from '../../../services/monitors/trends/groups.js';
import { addCell, emptyPool, type Pool } from '../../../services/monitors/trends/pool.js';
import {
  gapCells,
  poolRegion,
  runPools,
  type PooledRun,
} from '../../../services/monitors/trends/pooled.js';
import { detectChanges } from '../../../services/monitors/changes/detect.js';

const close = (t: Test, actual: number | null, expected: number, what: string) =>
  t.ok(actual !== null && Math.abs(actual - expected) < 5e-5, `${what}: ${actual} ≈ ${expected}`);

const group = (keyword: string, extra: Partial<GroupCounts> = {}): GroupCounts => ({
  ...emptyGroup(keyword),
  ...extra,
});

const cell = (
  extra: Partial<CellSnapshot> & { acme?: Partial<GroupCounts> } = {},
): CellSnapshot => {
  const { acme, ...rest } = extra;
  return {
    prompt: 0,
    platform: 'chatgpt',
    channel: 'api',
    mode: 'search',
    asked: 3,
    answered: 3,
    ranOtherMode: 0,
    groups: [group('Acme', acme), group('Globex')],
    citedDomains: {},
    stability: null,
    models: [],
    targetWidth: null,
    widthReached: null,
    ...rest,
  };
};

let slot = 0;
const run = (cells: CellSnapshot[], extra: Partial<RunFigures> = {}): RunFigures => {
  slot += 86_400_000;
  return {
    runId: `run-${slot / 86_400_000}`,
    slot,
    finishedAt: slot + 1,
    promptTags: [['crm', 'smb'], []],
    regions: [{ regionCode: '310000', cells }],
    ...extra,
  };
};

const ALL = { from: null, to: null };

/** A run as stored: each region's cells pre-pooled, as the snapshot does. */
const pooled = (r: RunFigures): PooledRun => ({
  runId: r.runId,
  slot: r.slot,
  finishedAt: r.finishedAt,
  regions: r.regions.map((g) => ({ pools: poolRegion(g.regionCode, g.cells ?? [], r.promptTags) })),
});

const trendsOf = (runs: RunFigures[], by: Parameters<typeof buildTrends>[1]) =>
  buildTrends(runs.map(pooled), by, ALL);

t.test('a point pools its cells: every figure and the funnel by hand', async (t) => {
  const a = cell({
    asked: 4,
    answered: 3,
    citedDomains: { 'acme.com': 2, 'news.example': 1 },
    stability: 0.5,
    models: ['gpt-4o'],
  });
  a.groups = [
    group('Acme', {
      mentioned: 2,
      mentionCount: 3,
      positions: [1, 3],
      inReasoning: 3,
      inReferences: 2,
      inCitations: 1,
      droppedAfterReasoning: 1,
    }),
    group('Globex', { mentioned: 1, mentionCount: 1, positions: [2] }),
  ];
  const b = cell({
    prompt: 1,
    answered: 2,
    asked: 2,
    citedDomains: { 'news.example': 2 },
    stability: 0.9,
  });
  b.groups = [
    group('Acme', { mentioned: 1, mentionCount: 1, positions: [2], inReasoning: 1 }),
    group('Globex', { mentioned: 2, mentionCount: 3 }),
  ];
  const trends = trendsOf([run([a, b])], 'platform');
  t.equal(trends.definitionsVersion, 3);
  t.strictSame(
    trends.series.map((s) => [s.group, s.keyword]),
    [
      ['chatgpt', 'Acme'],
      ['chatgpt', 'Globex'],
    ],
  );
  const p = trends.series[0]!.points[0]!;
  t.equal(p.mentionRate.value, 3 / 5, '3 of 5 answers');
  close(t, p.mentionRate.lower, 0.2307, 'Wilson 3/5 lower');
  close(t, p.mentionRate.upper, 0.8824, 'Wilson 3/5 upper');
  t.equal(p.position!.mean, 2, 'places 1, 3, 2');
  t.equal(p.position!.sd, 1, 'sample sd of 1, 3, 2');
  t.equal(p.position!.n, 3);
  t.equal(p.shareOfVoice, 4 / 8, '4 of the 8 mentions of all groups');
  t.equal(p.citationShare, 1 / 5);
  t.strictSame(p.topDomains, [
    { domain: 'news.example', count: 3 },
    { domain: 'acme.com', count: 2 },
  ]);
  close(t, p.stability, 0.7, 'mean of the cells’ stability');
  t.strictSame(
    { ...p.funnel, consideredButDropped: p.funnel.consideredButDropped.value },
    {
      n: 5,
      inReasoning: 4,
      inReferences: 2,
      inCitations: 1,
      inAnswer: 3,
      consideredButDropped: 1 / 4,
    },
    'reasoning 4 → references 2 → citations 1 → answer 3; 1 of the 4 dropped',
  );
  t.equal(
    p.funnel.consideredButDropped.n,
    4,
    'the dropped rate is of the answers that considered it',
  );
  t.strictSame(p.samples, { cells: 2, asked: 6, meanPerCell: 3 });
  t.strictSame(p.models, ['gpt-4o']);
  const none = trendsOf([run([cell({ answered: 0 })])], 'platform').series[0]!.points[0]!;
  t.strictSame(none.mentionRate, { value: null, lower: null, upper: null, n: 0 }, 'n = 0: nulls');
  t.equal(none.position, null);
  t.equal(none.shareOfVoice, null);
  t.equal(none.citationShare, null);
});

t.test('groups: by tag (a cell in each of its tags), by region, channel and mode', async (t) => {
  const r = run([cell(), cell({ prompt: 1, channel: 'web', mode: 'chat' })], {
    regions: [
      { regionCode: '310000', cells: [cell()] },
      { regionCode: null, cells: [cell({ prompt: 1, channel: 'web', mode: 'chat' })] },
    ],
  });
  const groupsBy = (by: Parameters<typeof buildTrends>[1]) => [
    ...new Set(trendsOf([r], by).series.map((s) => s.group)),
  ];
  t.strictSame(groupsBy('tag'), ['', 'crm', 'smb'], "an untagged prompt falls in ''");
  t.strictSame(groupsBy('region'), ['', '310000']);
  t.strictSame(groupsBy('channel'), ['api', 'web']);
  t.strictSame(groupsBy('mode'), ['chat', 'search']);
});

t.test(
  'a model marker where the reported models change; unknown models mark nothing',
  async (t) => {
    const runs = [['m1'], [], ['m1'], ['m1', 'm2'], ['m2']].map((models) =>
      run([cell({ models })]),
    );
    const points = trendsOf(runs.reverse(), 'platform').series[0]!.points;
    t.strictSame(
      points.map((p) => p.modelChanged),
      [false, false, false, true, true],
    );
    t.ok(
      points.every((p, i) => i === 0 || p.slot > points[i - 1]!.slot),
      'oldest first',
    );
  },
);

t.test('the API–web gap with its Newcombe interval, only where both channels ran', async (t) => {
  const api = cell({ acme: { mentioned: 3 } });
  const web = cell({ channel: 'web', acme: { mentioned: 1 } });
  const other = cell({ prompt: 1 });
  const [gap, ...rest] = trendsOf([run([api, web, other])], 'platform').channelGap;
  t.equal(rest.length, 1, 'two keyword groups of prompt 0; prompt 1 ran on the api only');
  t.strictSame([gap!.prompt, gap!.platform, gap!.keyword], [0, 'chatgpt', 'Acme']);
  const point = gap!.points[0]!;
  t.equal(point.api.value, 1);
  close(t, point.web.value, 1 / 3, 'web');
  // By hand: d = 1 − 1/3; lower = d − √((1 − 0.43850)² + (0.79234 − 1/3)²),
  // upper = d + √((1 − 1)² + (1/3 − 0.06149)²).
  close(t, point.gap.value, 0.66667, 'gap');
  close(t, point.gap.lower, 0.66667 - Math.hypot(1 - 0.4385, 0.79234 - 1 / 3), 'lower');
  close(t, point.gap.upper, 0.66667 + (1 / 3 - 0.06149), 'upper');
  close(t, point.gap.lower, -0.05857, 'lower, as a number');
});

/** The gap's pools pooled straight from the cells: only answered and mentions count. */
function directGap(r: RunFigures): Map<string, { api?: Pool; web?: Pool }> {
  const byCell = new Map<string, { api?: Pool; web?: Pool }>();
  for (const [, c] of cellsOf(r)) {
    if (c.channel !== 'api' && c.channel !== 'web') continue;
    const key = `${c.prompt}\n${c.platform}`;
    if (!byCell.has(key)) byCell.set(key, {});
    addCell((byCell.get(key)![c.channel] ??= emptyPool()), c);
  }
  return byCell;
}

/** What the gap reads: the counts of each prompt and platform asked on both channels. */
const gapCounts = (cells: Map<string, { api?: Pool; web?: Pool }>) =>
  [...cells]
    .filter(([, c]) => c.api && c.web)
    .map(([key, c]) => [
      key,
      (['api', 'web'] as const).map((ch) =>
        c[ch] ? [c[ch].answered, [...c[ch].brands].map(([k, b]) => [k, b.mentioned])] : null,
      ),
    ]);

t.test('pre-pooled entries read back equal pooling the cells directly (random runs)', async (t) => {
  const count = fc.integer({ min: 0, max: 4 });
  const randomCell = fc
    .record({
      prompt: fc.integer({ min: 0, max: 2 }),
      platform: fc.constantFrom('chatgpt', 'kimi', 'doubao'),
      channel: fc.constantFrom('api', 'web', 'other'),
      mode: fc.constantFrom('search', 'think'),
      asked: count,
      answered: count,
      // Multiples of 1/8 add up exactly in any order.
      stability: fc.option(fc.integer({ min: 0, max: 8 }).map((n) => n / 8)),
      models: fc.uniqueArray(fc.constantFrom('m-1', 'm-2', 'm-3'), { maxLength: 2 }),
      citedDomains: fc.dictionary(fc.constantFrom('a.example', 'b.example', 'c.example'), count),
      groups: fc.tuple(
        ...['Acme', 'Globex'].map((keyword) =>
          fc.record({
            keyword: fc.constant(keyword),
            mentioned: count,
            mentionCount: count,
            positions: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
            inReasoning: count,
            inReferences: count,
            inCitations: count,
            droppedAfterReasoning: count,
          }),
        ),
      ),
    })
    .map((c): CellSnapshot => ({ ...c, ranOtherMode: 0, targetWidth: null, widthReached: null }));
  const randomRun = fc
    .record({
      promptTags: fc.array(fc.uniqueArray(fc.constantFrom('crm', 'smb', 'hr'), { maxLength: 2 }), {
        maxLength: 3,
      }),
      regions: fc.array(
        fc.record({
          regionCode: fc.option(fc.constantFrom('310000', '110000')),
          cells: fc.array(randomCell, { maxLength: 6 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    })
    .map((r): RunFigures => {
      // Every region of a run asks the same cells (prompt, platform, channel, mode), as runs do.
      const layout = r.regions[0]!.cells;
      const regions = r.regions.map(({ regionCode, cells }) => ({
        regionCode,
        cells: layout.map((c, i) => {
          const { prompt, platform, channel, mode } = c;
          return { ...(cells[i] ?? c), prompt, platform, channel, mode };
        }),
      }));
      return { runId: 'run', slot: 1, finishedAt: 2, promptTags: r.promptTags, regions };
    });
  fc.assert(
    fc.property(randomRun, (r) => {
      const stored = pooled(JSON.parse(JSON.stringify(r)) as RunFigures);
      for (const by of TREND_GROUPS) {
        t.strictSame(runPools(stored, by), poolRun(r, by), `pools by ${by}`);
      }
      t.strictSame(gapCounts(gapCells(stored)), gapCounts(directGap(r)), 'gap counts');
    }),
    { numRuns: 200 },
  );
});

const kinds = (changes: { kind: string; scope: { level: string } }[], level = 'cell') =>
  changes.filter((c) => c.scope.level === level && c.kind !== 'drift').map((c) => c.kind);

t.test('gained and lost: intervals apart, or the two-proportion test; not noise', async (t) => {
  const pair = (before: number, after: number, n: number) =>
    detectChanges([
      run([cell({ answered: n, acme: { mentioned: before } })]),
      run([cell({ answered: n, acme: { mentioned: after } })]),
    ]);
  const lost = pair(10, 0, 10);
  t.strictSame(kinds(lost), ['brand_lost']);
  t.strictSame(kinds(lost, 'group'), ['brand_lost'], 'and for the platform');
  t.match(lost[0]!, { keyword: 'Acme', before: 1, after: 0, detail: /do not overlap/ });
  t.strictSame(kinds(pair(0, 10, 10)), ['brand_gained']);
  // 0/2 → 2/2: the intervals overlap ([0, 0.658] and [0.342, 1]), z = 2 > 1.96.
  t.match(pair(0, 2, 2)[0]!, { kind: 'brand_gained', detail: /z = 2\.00/ });
  t.strictSame(kinds(pair(2, 3, 5)), [], '2/5 → 3/5 is noise');
});

t.test('position moved by 2 or more; a competitor appeared', async (t) => {
  const placed = (positions: number[], globex = 0) => {
    const c = cell({ acme: { mentioned: 3, positions } });
    c.groups[1] = group('Globex', { mentioned: globex });
    return c;
  };
  const moved = detectChanges([run([placed([1, 1, 1])]), run([placed([3, 3, 4])])]);
  t.match(kinds(moved), ['position_moved']);
  t.match(moved[0]!, { before: 1, after: 3.333 });
  t.strictSame(
    kinds(detectChanges([run([placed([1, 1])]), run([placed([2, 3])])])),
    [],
    '1.5 away',
  );
  const appeared = detectChanges([run([placed([1])]), run([placed([1], 1)])]);
  t.strictSame(kinds(appeared), ['competitor_appeared'], 'not also gained');
  t.match(appeared[0]!, { keyword: 'Globex', before: 0 });
  const back = detectChanges([run([placed([1], 1)]), run([placed([1], 2)])]);
  t.strictSame(kinds(back), [], 'present before: no appearance');
});

t.test(
  'a cited domain added or removed only when established, not for a stray citation',
  async (t) => {
    const cited = (citedDomains: Record<string, number>) =>
      cell({ answered: 4, asked: 4, citedDomains });
    const added = detectChanges([
      run([cited({})]),
      run([cited({ 'acme.com': 2, 'stray.example': 1 })]),
    ]);
    t.strictSame(kinds(added), ['domain_added']);
    t.match(added[0]!, { domain: 'acme.com', before: 0, after: 0.5 });
    const removed = detectChanges([run([cited({ 'acme.com': 3 })]), run([cited({})])]);
    t.match(removed[0]!, { kind: 'domain_removed', domain: 'acme.com', before: 0.75, after: 0 });
    t.strictSame(
      kinds(detectChanges([run([cited({ 'acme.com': 3 })]), run([cited({ 'acme.com': 1 })])])),
      [],
      'still cited once: not removed',
    );
    const one = (citedDomains: Record<string, number>) =>
      cell({ answered: 1, asked: 1, citedDomains });
    t.strictSame(
      kinds(detectChanges([run([one({ 'x.example': 1 })]), run([one({})])])),
      [],
      'one citation of one answer never makes a change',
    );
  },
);

t.test('CUSUM flags a slow decline at the run where it crosses, and only there', async (t) => {
  // 5 baseline runs at 18/20, then 16/20 each run: no single step is significant.
  const rates = [18, 18, 18, 18, 18, 16, 16, 16, 16, 16, 16, 16];
  const runs = rates.map((m) => run([cell({ answered: 20, asked: 20, acme: { mentioned: m } })]));
  const drifts = runs.map((_, i) =>
    detectChanges(runs.slice(0, i + 1)).filter((c) => c.kind === 'drift' && c.keyword === 'Acme'),
  );
  // By hand: p0 = 0.9, se = √(0.9 · 0.1 / 20) = 0.06708, z = −1.4907 each run, so the lower
  // sum grows by 0.9907 a run and passes 4 at the fifth declining run (4.95), index 9.
  t.strictSame(
    drifts.map((d) => d.length),
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0],
    'flagged once, at run 9; the sums then restart',
  );
  const at = 9;
  t.match(drifts[at]![0]!, {
    scope: { level: 'group', platform: 'chatgpt' },
    before: 0.9,
    after: 0.8,
  });
  t.match(drifts[at]![0]!.detail, /CUSUM down/);
  for (let i = 1; i < runs.length; i++) {
    t.strictSame(kinds(detectChanges(runs.slice(0, i + 1))), [], `run ${i}: no step change`);
  }
});
