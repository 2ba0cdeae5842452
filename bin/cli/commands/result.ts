/** `aimon result <taskId> [--format table|json|csv]`: the full result, also while the task runs. */
import { Command, Option } from 'commander';
import type { ResultData } from '../../../services/shared/contracts/http.js';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import type { Cli } from '../context.js';
import {
  DEFAULT_WIDTH,
  formatResult,
  RESULT_FORMATS,
  type ResultFormat,
} from '../result-format.js';

export function resultCommand(cli: Cli): Command {
  return new Command('result')
    .description("a task's full result: every sub task's answer, sources and error")
    .argument('<taskId>')
    .addOption(
      new Option('--format <format>', 'output format').choices(RESULT_FORMATS).default('table'),
    )
    .action(
      cli.action(async (taskId: string, o: { format: ResultFormat }) => {
        const client = await cli.client();
        const result = await client.get<ResultData>(
          pathTo(PATHS.TASK_RESULT, { taskId }),
          {},
          'the result request',
        );
        const text = formatResult(result, o.format, cli.stdout.columns || DEFAULT_WIDTH);
        // CSV records already end in CRLF; anything else gets its final newline.
        if (o.format === 'csv') cli.stdout.write(text);
        else cli.print(text);
      }),
    );
}
