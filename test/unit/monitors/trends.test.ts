/**
 * Trends and change detection on crafted snapshots (services/monitors/trends/,
 * services/monitors/changes/): pooled figures and the funnel by hand, model
 * markers, the API–web gap against Newcombe's formula, and each change rule on
 * both sides of its threshold, CUSUM drift included.
 */
import t, { type Test } from 'tap';
import type { CellSnapshot, GroupCounts } from '../../../services/monitors/snapshot.js';
import type { RunFigures } from '../../../services/monitors/trends/runs.js';
import { buildTrends } from '../../../services/monitors/trends/series.js';
import { detectChanges } from '../../../services/monitors/changes/detect.js';

const close = (t: Test, actual: number | null, expected: number, what: string) =>
  t.ok(actual !== null && Math.abs(actual - expected) < 5e-5, `${what}: ${actual} ≈ ${expected}`);

const group = (keyword: string, extra: Partial<GroupCounts> = {}): GroupCounts => ({
  keyword,
  mentioned: 0,
  mentionCount: 0,
  positions: [],
  inReasoning: 0,
  inReferences: 0,
  inCitations: 0,
  droppedAfterReasoning: 0,
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
  const trends = buildTrends([run([a, b])], 'platform', ALL);
  t.equal(trends.definitionsVersion, 2);
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
  const none = buildTrends([run([cell({ answered: 0 })])], 'platform', ALL).series[0]!.points[0]!;
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
    ...new Set(buildTrends([r], by, ALL).series.map((s) => s.group)),
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
    const points = buildTrends(runs.reverse(), 'platform', ALL).series[0]!.points;
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
  const [gap, ...rest] = buildTrends([run([api, web, other])], 'platform', ALL).channelGap;
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
