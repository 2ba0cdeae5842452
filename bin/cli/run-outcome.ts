/**
 * A monitor run as `monitor run --wait` follows it (pure): the tasks to
 * follow as the run lists them (each region's task, then the follow-up rounds
 * adaptive sampling adds), whether the run has ended, and the exit code of
 * its outcome on the scheme of `status --wait`: 0 when every task completed,
 * 3 when none completed a sub task (every task failed or was refused), 2 in
 * between.
 */
import type { RunView } from '../../services/shared/contracts/monitors.js';
import type { TaskStatus } from '../../services/shared/contracts/status.js';
import { EXIT, type ExitCode } from './exit-codes.js';

export interface RunTask {
  taskId: string;
  /** Where it belongs: `region 310100`, `region (none), follow-up round 1`. */
  label: string;
}

const regionName = (code: string | null) => `region ${code ?? '(none)'}`;

/** The run's submitted tasks, in the order the run lists them. */
export function runTasks(run: RunView): RunTask[] {
  return run.regions.flatMap((r) => [
    ...(r.submitted && r.error === null
      ? [{ taskId: r.taskId, label: regionName(r.regionCode) }]
      : []),
    ...r.followUps
      .filter((f) => f.submitted && f.error === null)
      .map((f) => ({
        taskId: f.taskId,
        label: `${regionName(r.regionCode)}, follow-up round ${f.round}`,
      })),
  ]);
}

/** Submissions the service refused: a region's task or a follow-up round. */
export function refusedSubmissions(run: RunView): number {
  return run.regions.reduce(
    (n, r) => n + (r.error === null ? 0 : 1) + r.followUps.filter((f) => f.error !== null).length,
    0,
  );
}

export const runEnded = (run: RunView): boolean =>
  run.status === 'finished' || run.status === 'failed';

/** The exit code of an ended run from its tasks' final states and its refusals. */
export function exitCodeOfRun(run: RunView, finals: readonly TaskStatus[]): ExitCode {
  const refused = refusedSubmissions(run);
  if (run.status === 'failed' || finals.length === 0) return EXIT.failed;
  if (refused === 0 && finals.every((s) => s === 'completed')) return EXIT.ok;
  if (finals.every((s) => s === 'failed')) return EXIT.failed;
  return EXIT.partial;
}
