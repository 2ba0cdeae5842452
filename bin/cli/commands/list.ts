/** `aimon list [--status s] [--page n] [--size n] [--json]`: the caller's tasks, newest first. */
import { Command } from 'commander';
import type { ListData } from '../../../services/shared/contracts/http.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import type { Cli } from '../context.js';
import { listText } from '../list-format.js';

export function listCommand(cli: Cli): Command {
  return new Command('list')
    .description('your tasks, a page at a time')
    .option(
      '--status <status>',
      'only tasks in this state: pending, processing, completed, partial_completed, failed',
    )
    .option('--page <n>', 'page number, from 1', '1')
    .option('--size <n>', 'tasks per page, at most 100', '10')
    .option('--json', 'print the list answer as JSON')
    .action(
      cli.action(async (o: { status?: string; page: string; size: string; json?: boolean }) => {
        const client = await cli.client();
        const list = await client.get<ListData>(
          PATHS.TASK_LIST,
          { status: o.status, page: o.page, size: o.size },
          'the task list request',
        );
        cli.print(o.json ? JSON.stringify(list, null, 2) : listText(list));
      }),
    );
}
