/**
 * The discovered brands of a monitor (issue 36), pure: snapshot cells count
 * them by key, trends follow each per group with its Wilson share per run (0
 * in a run that did not name it, no point in a run that watched it), the
 * changes feed reports a brand new to the monitor or risen beyond the noise,
 * and watching adds a group unless one has the name's key already.
 */
import t from 'tap';
import {
  snapshotCells,
  type CellSnapshot,
  type ResultItem,
} from '../../../services/monitors/snapshot.js';
import { poolRegion, type PooledRun } from '../../../services/monitors/trends/pooled.js';
import { buildTrends } from '../../../services/monitors/trends/series.js';
import type { RunFigures } from '../../../services/monitors/trends/runs.js';
import { detectChanges } from '../../../services/monitors/changes/detect.js';
import { discoveredChanges } from '../../../services/monitors/changes/discovered.js';
import { watch, watchedKeys } from '../../../services/monitors/watch.js';
import { runTaskIds } from '../../../services/monitors/insights.js';
import { wilson } from '../../../services/monitors/figures/wilson.js';
import { checkWatchInput } from '../../../services/shared/requests/monitor-watch.js';
import type { DiscoveredEntry, Mention } from '../../../services/shared/contracts/brand.js';

const KEYWORDS = ['Acme'];

const mention = (count: number): Mention => ({
  keyword: 'Acme',
  count,
  firstIndex: count > 0 ? 0 : null,
  position: count > 0 ? 1 : null,
  groupRank: count > 0 ? 1 : null,
  inReasoning: false,
  inReferences: false,
  inCitations: false,
});

let seq = 0;
/** One completed answer naming Acme and the given discovered brands, in order of position. */
const answer = (names: string[], platform = 0): ResultItem & { platform: number } => ({
  seq: seq++,
  platform,
  result: { status: 'completed', answerContent: 'x', citationList: [] },
  brand: { mentions: [mention(1)], mentioned: true, sentiment: null },
  discovered: names.map((name, i): DiscoveredEntry => ({ name, position: i + 2 })),
});

/** The cells of one prompt on one platform, `answers` samples. */
function cellsOf(answers: string[][], keywords = KEYWORDS): CellSnapshot[] {
  seq = 0;
  return snapshotCells(
    {
      prompts: 1,
      platforms: [{ platform: 'sandbox', channel: 'api', mode: 'search', screenshot: 0 }],
      samples: answers.length,
      keywords,
      targetWidth: null,
    },
    answers.map((names) => answer(names)),
  );
}

let slot = 0;
function runOf(cells: CellSnapshot[]): RunFigures {
  slot += 3_600_000;
  return {
    runId: `run-${slot / 3_600_000}`,
    slot,
    finishedAt: slot + 1,
    promptTags: [[]],
    regions: [{ regionCode: null, cells }],
  };
}

const pooled = (r: RunFigures): PooledRun => ({
  runId: r.runId,
  slot: r.slot,
  finishedAt: r.finishedAt,
  regions: r.regions.map((g) => ({ pools: poolRegion(g.regionCode, g.cells ?? [], r.promptTags) })),
});

t.test('a cell counts each discovered brand once per answer, merged by key', async (t) => {
  const [cell] = cellsOf([
    ['Initech', 'Hooli'],
    ['**initech**'],
    ['Ｉｎｉｔｅｃｈ', 'Initech'],
    [],
  ]);
  t.strictSame(cell!.discovered, [
    { key: 'initech', name: 'Initech', mentioned: 3, positions: [2, 2, 2] },
    { key: 'hooli', name: 'Hooli', mentioned: 1, positions: [3] },
  ]);
  t.equal(cell!.answered, 4);
});

t.test(
  'trends: share per run with its Wilson interval, 0 where unnamed, none where watched',
  async (t) => {
    const first = runOf(cellsOf([['Hooli'], ['Hooli'], [], []]));
    const second = runOf(cellsOf([['Hooli', 'Initech'], ['Initech'], ['Initech'], ['Initech']]));
    // The third run watches Initech: the run's keyword groups hold it, so it is no discovery there.
    const third = runOf(cellsOf([['Hooli'], [], [], []], ['Acme', 'Initech']));
    const trends = buildTrends(
      [third, first, second].map(pooled),
      'platform',
      { from: null, to: null },
      watchedKeys(['Acme', 'Initech']),
    );
    t.strictSame(
      trends.discovered.map((s) => [s.group, s.name, s.watched, s.answers]),
      [
        ['sandbox', 'Hooli', false, 4],
        ['sandbox', 'Initech', true, 4],
      ],
      'most named first, then the best place (Hooli 2, Initech 2.25); Initech watched today',
    );
    const [hooli, initech] = trends.discovered;
    t.strictSame(
      initech!.points.map((p) => [p.runId, p.share.value]),
      [
        [first.runId, 0],
        [second.runId, 1],
      ],
      'a point at 0 before it appeared, none in the run that watched it',
    );
    t.strictSame(initech!.points[1]!.share, { ...wilson(4, 4) }, 'the Wilson 95 % interval');
    t.strictSame(initech!.points[0]!.position, null);
    t.strictSame(initech!.points[1]!.position, { mean: 2.25, sd: 0.5, n: 4 });
    t.strictSame(
      hooli!.points.map((p) => [p.share.value, p.share.n]),
      [
        [0.5, 4],
        [0.25, 4],
        [0.25, 4],
      ],
    );
  },
);

t.test('changes: a brand new to the monitor, or risen beyond the noise', async (t) => {
  const one = runOf(cellsOf([['Hooli'], [], [], [], [], []]));
  t.strictSame(discoveredChanges([one]), [], 'the first run sets the baseline');
  const two = runOf(
    cellsOf([['Hooli', 'Initech'], ['Hooli'], ['Hooli'], ['Hooli'], ['Hooli'], ['Hooli']]),
  );
  const changes = detectChanges([one, two]).filter((c) => c.scope.level === 'run');
  t.match(changes, [
    {
      kind: 'discovered_rose',
      keyword: 'Hooli',
      before: 0.167,
      after: 1,
      detail: /6\/6 answers, was 1\/6 \(the Wilson 95 % intervals do not overlap\)/,
    },
    { kind: 'discovered_new', keyword: 'Initech', before: 0, after: 0.167 },
  ]);
  t.equal(changes.length, 2);
  // The same shares again: nothing new, nothing rose; one more answer is noise.
  const three = runOf(
    cellsOf([
      ['Hooli', 'Initech'],
      ['Hooli'],
      ['Hooli'],
      ['Hooli'],
      ['Hooli'],
      ['Hooli', 'Initech'],
    ]),
  );
  t.strictSame(discoveredChanges([one, two, three]), [], '1/6 → 2/6 is within the noise');
  // A brand gone for a run and back is not new; watched before, it is not new either.
  const four = runOf(cellsOf([[], [], [], [], [], []], ['Acme', 'Umbrella']));
  const five = runOf(cellsOf([['Umbrella'], ['Initech'], [], [], [], []]));
  t.strictSame(discoveredChanges([one, two, three, four, five]), [], 'seen or watched before');
});

t.test('watch: a group of its own, unless an alias has the key already', async (t) => {
  t.strictSame(watch('Acme|acme.com, Globex', ['Acme|acme.com', 'Globex'], 'Initech'), {
    added: true,
    keyword: 'Initech',
    monitorKeywords: 'Acme|acme.com, Globex, Initech',
    keywords: ['Acme|acme.com', 'Globex', 'Initech'],
  });
  t.strictSame(watch('Acme|Stark Industries', ['Acme|Stark Industries'], 'stark-industries'), {
    added: false,
    keyword: 'Acme',
  });
  t.strictSame(watch('Acme', ['Acme'], 'ACME'), { added: false, keyword: 'Acme' });
  t.throws(() => watch('A'.repeat(1995), ['A'.repeat(1995)], 'Initech'), {
    code: 400,
    data: { errors: [{ field: 'name' }] },
  });
  t.strictSame([...watchedKeys(['Acme|acme.com', 'Globex'])], ['acme', 'acmecom', 'globex']);
});

t.test('the watch body: every broken rule in one 400', async (t) => {
  t.strictSame(checkWatchInput({ name: '  Initech ' }), { name: 'Initech' });
  const problems = (body: unknown) => {
    try {
      checkWatchInput(body);
      return [];
    } catch (err) {
      return (err as { data: { errors: { field: string; message: string }[] } }).data.errors;
    }
  };
  t.strictSame(problems([]), [{ field: 'body', message: 'must be a JSON object' }]);
  t.strictSame(
    problems({ name: 'Acme, Inc.\n', extra: 1 })
      .map((p) => p.field)
      .sort(),
    ['body', 'name', 'name'],
    'separators, a line break and an unknown field',
  );
  t.strictSame(
    problems({}).map((p) => p.field),
    ['name'],
  );
  t.match(problems({ name: 'x'.repeat(101) }), [{ field: 'name', message: /at most 100/ }]);
});

t.test("a run's insights read every task it asked, not the refused ones", async (t) => {
  const region = (
    taskId: string,
    error: string | null,
    followUps: [string, string | null][] = [],
  ) => ({
    taskId,
    error,
    followUps: followUps.map(([id, e]) => ({ taskId: id, error: e })),
  });
  t.strictSame(
    runTaskIds({
      regions: [
        region('a', null, [
          ['a1', null],
          ['a2', 'refused'],
        ]),
        region('b', 'refused'),
        region('c', null),
      ],
    } as never),
    ['a', 'a1', 'c'],
  );
});
