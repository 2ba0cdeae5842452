/**
 * `monitor run --wait`, the pure part: the tasks of a run to follow (region
 * tasks and submitted follow-ups, not refused ones), when the run has ended,
 * and the exit code of its outcome on the `status --wait` scheme.
 */
import t from 'tap';
import type { RunView } from '../../../services/shared/contracts/monitors.js';
import { EXIT } from '../../../bin/cli/exit-codes.js';
import {
  exitCodeOfRun,
  refusedSubmissions,
  runEnded,
  runTasks,
} from '../../../bin/cli/run-outcome.js';

type Region = RunView['regions'][number];
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function region(n: number, extra: Partial<Region> = {}): Region {
  return {
    regionCode: n === 0 ? null : `31010${n}`,
    taskId: ID(n),
    submitted: true,
    taskStatus: null,
    error: null,
    followUps: [],
    samplesTaken: null,
    callsSaved: null,
    cells: null,
    ...extra,
  };
}

function runOf(status: RunView['status'], regions: Region[]): RunView {
  return {
    runId: ID(99),
    monitorId: ID(98),
    trigger: 'manual',
    slot: Date.UTC(2026, 11, 7, 10),
    status,
    createdAt: Date.UTC(2026, 11, 7, 10),
    finishedAt: null,
    samplesTaken: null,
    samplesSaved: null,
    regions,
  };
}

const followUp = (round: number, submitted: boolean, error: string | null) => ({
  round,
  taskId: ID(50 + round),
  cells: 1,
  samples: 3,
  submitted,
  error,
});

t.test(
  'the tasks to follow: submitted ones, in the run order, with where they belong',
  async (t) => {
    const run = runOf('running', [
      region(0, { followUps: [followUp(1, true, null), followUp(2, false, null)] }),
      region(2, { error: 'no usable account in region 310102' }),
      region(3, { followUps: [followUp(3, true, 'too many unfinished sub tasks')] }),
    ]);
    t.same(runTasks(run), [
      { taskId: ID(0), label: 'region (none)' },
      { taskId: ID(51), label: 'region (none), follow-up round 1' },
      { taskId: ID(3), label: 'region 310103' },
    ]);
    t.equal(refusedSubmissions(run), 2, 'a refused region and a refused follow-up');
    t.notOk(runEnded(run));
    t.ok(runEnded(runOf('finished', [])));
    t.ok(runEnded(runOf('failed', [])));
    t.notOk(runEnded(runOf('starting', [])));
  },
);

t.test('exit codes: every task completed 0, some failed 2, all failed or refused 3', async (t) => {
  const two = [region(1), region(2)];
  t.equal(exitCodeOfRun(runOf('finished', two), ['completed', 'completed']), EXIT.ok);
  t.equal(exitCodeOfRun(runOf('finished', two), ['completed', 'partial_completed']), EXIT.partial);
  t.equal(exitCodeOfRun(runOf('finished', two), ['completed', 'failed']), EXIT.partial);
  t.equal(exitCodeOfRun(runOf('finished', two), ['failed', 'failed']), EXIT.failed);
  const refusedOne = [region(1), region(2, { error: 'refused' })];
  t.equal(
    exitCodeOfRun(runOf('finished', refusedOne), ['completed']),
    EXIT.partial,
    'a refused region is a part that failed',
  );
  t.equal(exitCodeOfRun(runOf('finished', refusedOne), ['failed']), EXIT.failed);
  t.equal(
    exitCodeOfRun(runOf('failed', [region(1, { error: 'refused' })]), []),
    EXIT.failed,
    'every region refused: the run failed',
  );
});
