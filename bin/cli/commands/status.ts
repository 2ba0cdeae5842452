/** `aimon status <taskId> [--wait] [--json]`: the task's state and its sub tasks. */
import { Command } from 'commander';
import type { StatusData } from '../../../services/shared/contracts/http.js';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import type { Cli } from '../context.js';
import { summaryText } from '../summary.js';
import { waitForTask } from '../wait.js';

export function statusCommand(cli: Cli): Command {
  return new Command('status')
    .description("a task's status with its sub tasks per platform and prompt")
    .argument('<taskId>')
    .option('--wait', 'follow the task to its end; the exit code tells its final state')
    .option('--json', 'print the status answer as JSON')
    .action(
      cli.action(async (taskId: string, o: { wait?: boolean; json?: boolean }) => {
        const client = await cli.client();
        if (o.wait) return waitForTask(cli, client, taskId);
        const view = await client.get<StatusData>(
          pathTo(PATHS.TASK_STATUS, { taskId }),
          {},
          'the status request',
        );
        cli.print(o.json ? JSON.stringify(view, null, 2) : `${summaryText(view)}\n${view.message}`);
      }),
    );
}
