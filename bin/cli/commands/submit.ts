/**
 * `aimon submit [prompts...] -p platform[:mode][:channel] …`: submits a
 * batch and prints its task id; with --wait it follows the task to its end
 * and exits with its final state.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import type { SubmitData } from '../../../services/shared/contracts/http.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { PLATFORM_SPEC_HELP } from '../platform-spec.js';
import { buildSubmission, promptsOfFile, type SubmitOptions } from '../submission.js';
import { waitForTask } from '../wait.js';

interface Options extends Omit<SubmitOptions, 'platform'> {
  platform?: string[];
  file?: string;
  wait?: boolean;
  json?: boolean;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function submitCommand(cli: Cli): Command {
  return new Command('submit')
    .description('submit a batch: every prompt on every platform; prints the task id')
    .argument('[prompts...]', 'the prompts (quote each one)')
    .option(
      '-p, --platform <spec>',
      `${PLATFORM_SPEC_HELP}; repeat or separate with commas`,
      collect,
    )
    .option(
      '-f, --file <path>',
      'read prompts from a file, one per line (added after the arguments)',
    )
    .option(
      '--region <code>',
      'administrative division code of the proxy region (see `aimon regions`)',
    )
    .option(
      '--name <text>',
      'a name for the task, shown by `aimon list`, the dashboard and exports',
    )
    .option('--keywords <list>', 'brands to look for, comma-separated (Acme|acme.com,Globex)')
    .option('--callback <url>', 'completion callback address for this task')
    .option('--screenshot [level]', 'take screenshots: 1 (default) or 2 (mentions highlighted)')
    .option('--wait', 'follow the task to its end with a progress bar, then print a summary')
    .option('--json', 'print the submission answer as JSON instead of the task id')
    .action(
      cli.action(async (args: string[], o: Options) => {
        const platforms = o.platform ?? [];
        const { cwd } = await cli.settings();
        const prompts = [...args, ...(o.file ? promptsOfFile(readPrompts(cwd, o.file)) : [])];
        const body = buildSubmission(prompts, { ...o, platform: platforms });
        const client = await cli.client();
        const data = await client.post<SubmitData>(PATHS.TASK_SUBMIT, body, 'the submission');
        cli.print(o.json ? JSON.stringify(data, null, 2) : data.taskId);
        cli.note(`submitted ${data.totalTask} sub tasks as task ${data.taskId}`);
        if (o.wait) return waitForTask(cli, client, data.taskId);
      }),
    );
}

function readPrompts(cwd: string, path: string): string {
  try {
    // 0: stdin, for `--file -`.
    return readFileSync(path === '-' ? 0 : resolve(cwd, path), 'utf8');
  } catch (err) {
    throw new CliError(`cannot read prompts from ${path}: ${(err as Error).message}`, EXIT.usage);
  }
}
