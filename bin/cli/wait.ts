/**
 * `--wait`: follows the task's events stream with a progress display, then
 * prints the summary and gives the exit code of the task's final state.
 * `monitor run --wait` (run-wait.ts) follows each task of a run the same way.
 */
import type { ApiClient } from './api-client.js';
import type { Cli } from './context.js';
import { exitCodeOfTask, type ExitCode } from './exit-codes.js';
import { progressView } from './progress-view.js';
import { summaryText } from './summary.js';
import { followTask } from './task-events.js';
import { TaskProgress } from './task-progress.js';

/** Follows the task to its end with the progress display on stderr; its progress then. */
export async function followWithProgress(
  cli: Cli,
  client: ApiClient,
  taskId: string,
): Promise<TaskProgress> {
  const progress = new TaskProgress(taskId);
  const view = progressView(cli.stderr);
  try {
    await followTask(
      client,
      taskId,
      (event) => {
        if (progress.apply(event)) view.update(progress);
      },
      { onRetry: (why) => cli.note(why) },
    );
  } finally {
    view.stop();
  }
  return progress;
}

export async function waitForTask(cli: Cli, client: ApiClient, taskId: string): Promise<ExitCode> {
  const progress = await followWithProgress(cli, client, taskId);
  cli.print(
    summaryText({
      taskId,
      status: progress.status,
      totalItems: progress.total,
      completedItems: progress.completed,
      failedItems: progress.failed,
      subTaskList: progress.subTasks,
    }),
  );
  return exitCodeOfTask(progress.status);
}
