/**
 * `monitor run --wait`: follows each task of the run with the progress
 * `status --wait` shows (one task after another, each named on stderr first),
 * reads the run again until it has ended (adaptive sampling adds follow-up
 * tasks after a region's task is final; they are followed too), then gives
 * the ended run and the exit code of its outcome (run-outcome.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunView } from '../../services/shared/contracts/monitors.js';
import type { TaskStatus } from '../../services/shared/contracts/status.js';
import { PATHS, pathTo } from '../../services/shared/contracts/http-paths.js';
import type { ApiClient } from './api-client.js';
import type { Cli } from './context.js';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
import { exitCodeOfRun, runEnded, runTasks } from './run-outcome.js';
import { followWithProgress } from './wait.js';

/** Between reads of a run whose tasks are all final but which has not ended yet. */
const RUN_POLL_MS = 500;
const RUNS_PAGE = 100;

interface RunList {
  total: number;
  runs: RunView[];
}

/** The run, read from the monitor's runs (newest first: a run started now is on the first page). */
async function readRun(client: ApiClient, monitorId: string, runId: string): Promise<RunView> {
  for (let page = 1; ; page += 1) {
    const list = await client.get<RunList>(
      pathTo(PATHS.MONITOR_RUNS, { monitorId }),
      { page: String(page), size: String(RUNS_PAGE) },
      'the runs request',
    );
    const run = list.runs.find((r) => r.runId === runId);
    if (run) return run;
    if (page * RUNS_PAGE >= list.total)
      throw new CliError(`run ${runId} is not among the monitor's runs`, EXIT.unreachable);
  }
}

export async function waitForRun(
  cli: Cli,
  client: ApiClient,
  started: RunView,
): Promise<{ run: RunView; code: ExitCode }> {
  const finals = new Map<string, TaskStatus>();
  let run = started;
  for (;;) {
    for (const task of runTasks(run)) {
      if (finals.has(task.taskId)) continue;
      cli.note(`${task.label}: task ${task.taskId}`);
      finals.set(task.taskId, (await followWithProgress(cli, client, task.taskId)).status);
    }
    if (runEnded(run) && runTasks(run).every((task) => finals.has(task.taskId))) break;
    await sleep(RUN_POLL_MS);
    run = await readRun(client, run.monitorId, run.runId);
  }
  return { run, code: exitCodeOfRun(run, [...finals.values()]) };
}
