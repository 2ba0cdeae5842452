/**
 * `aimon monitor create|list|show|run|trends|changes|watch`: recurring runs of a
 * prompt set (docs/monitors.md). `aimon apply -f` (apply.ts) writes them from a file.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import type {
  MonitorView,
  RunView,
  WatchResult,
} from '../../../services/shared/contracts/monitors.js';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { buildMonitor, type MonitorOptions } from '../monitor-input.js';
import {
  changesText,
  monitorsText,
  monitorText,
  runText,
  trendsText,
  watchText,
  type ChangesData,
  type TrendsData,
} from '../monitor-format.js';
import { PLATFORM_SPEC_HELP } from '../platform-spec.js';
import { promptsOfFile } from '../submission.js';
import { waitForRun } from '../run-wait.js';
import { monitorIdOf } from '../monitor-lookup.js';

interface RunList {
  total: number;
  page: number;
  size: number;
  runs: RunView[];
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const print = (cli: Cli, json: boolean | undefined, data: unknown, text: () => string) =>
  cli.print(json ? JSON.stringify(data, null, 2) : text());
const monitorPath = (
  path: typeof PATHS.MONITOR | typeof PATHS.MONITOR_RUN | typeof PATHS.MONITOR_RUNS,
  monitorId: string,
) => pathTo(path, { monitorId });

export function readText(cwd: string, path: string, what: string): string {
  try {
    return readFileSync(path === '-' ? 0 : resolve(cwd, path), 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${what} from ${path}: ${(err as Error).message}`, EXIT.usage);
  }
}

function createCommand(cli: Cli): Command {
  return new Command('create')
    .description('create a monitor; prints its id')
    .argument('[prompts...]', 'the prompts (quote each one)')
    .requiredOption('--name <text>', 'the monitor name (what `aimon apply` matches by)')
    .option(
      '-p, --platform <spec>',
      `${PLATFORM_SPEC_HELP}; repeat or separate with commas`,
      collect,
    )
    .option('-f, --file <path>', 'read prompts from a file, one per line')
    .requiredOption('--keywords <list>', 'brands, comma-separated; the first is the monitored one')
    .option('--samples <n|min:max:width>', 'asks per cell: 3, or adaptive 3:10:0.4')
    .option('--cron <expression>', 'schedule: a 5- or 6-field cron expression')
    .option('--timezone <zone>', 'the IANA time zone of --cron', 'UTC')
    .option('--every <minutes>', 'schedule: every N minutes')
    .option('--region <code>', 'a region to run in, each its own task; repeat', collect)
    .option('--callback <url>', 'where changes are delivered')
    .option('--disabled', 'create it disabled: it runs only with `aimon monitor run`')
    .option('--json', 'print the monitor as JSON')
    .action(
      cli.action(
        async (args: string[], o: Partial<MonitorOptions> & { file?: string; json?: boolean }) => {
          const { cwd } = await cli.settings();
          const prompts = [
            ...args,
            ...(o.file ? promptsOfFile(readText(cwd, o.file, 'prompts')) : []),
          ];
          const body = buildMonitor(prompts, {
            ...o,
            platform: o.platform ?? [],
            region: o.region ?? [],
            timezone: o.timezone ?? 'UTC',
          });
          const client = await cli.client();
          const monitor = await client.post<MonitorView>(PATHS.MONITORS, body, 'the monitor');
          print(cli, o.json, monitor, () => monitor.monitorId);
          cli.note(`created monitor "${monitor.name}" (${monitor.monitorId})`);
        },
      ),
    );
}

function listCommand(cli: Cli): Command {
  return new Command('list')
    .description('your monitors, newest first')
    .option('--page <n>', 'page number, from 1', '1')
    .option('--size <n>', 'monitors per page, at most 100', '20')
    .option('--json', 'print the list as JSON')
    .action(
      cli.action(async (o: { page: string; size: string; json?: boolean }) => {
        const client = await cli.client();
        const list = await client.get<Parameters<typeof monitorsText>[0]>(
          PATHS.MONITORS,
          { page: o.page, size: o.size },
          'the monitor list request',
        );
        print(cli, o.json, list, () => monitorsText(list));
      }),
    );
}

function showCommand(cli: Cli): Command {
  return new Command('show')
    .description('a monitor and its latest runs with their figures')
    .argument('<monitorId>')
    .option('--runs <n>', 'latest runs to show', '3')
    .option('--json', 'print {monitor, runs} as JSON')
    .action(
      cli.action(async (monitorId: string, o: { runs: string; json?: boolean }) => {
        const client = await cli.client();
        const monitor = await client.get<MonitorView>(
          monitorPath(PATHS.MONITOR, monitorId),
          {},
          'the monitor request',
        );
        const runs = await client.get<RunList>(
          monitorPath(PATHS.MONITOR_RUNS, monitorId),
          { page: 1, size: o.runs },
          'the runs request',
        );
        print(cli, o.json, { monitor, runs }, () =>
          [monitorText(monitor), `runs: ${runs.total}`, ...runs.runs.map(runText)].join('\n\n'),
        );
      }),
    );
}

function runCommand(cli: Cli): Command {
  return new Command('run')
    .description('run a monitor now, beside its schedule; prints the run')
    .argument('<monitorId>')
    .option(
      '--wait',
      "follow the run's tasks to their end, then print the finished run; the exit code tells how they ended",
    )
    .option('--json', 'print the run as JSON')
    .action(
      cli.action(async (monitorId: string, o: { wait?: boolean; json?: boolean }) => {
        const client = await cli.client();
        const started = await client.post<RunView>(
          monitorPath(PATHS.MONITOR_RUN, monitorId),
          {},
          'the run request',
        );
        if (!o.wait) return print(cli, o.json, started, () => runText(started));
        const { run, code } = await waitForRun(cli, client, started);
        print(cli, o.json, run, () => runText(run));
        return code;
      }),
    );
}

function trendsCommand(cli: Cli): Command {
  return new Command('trends')
    .description('mention rate with its 95 % interval and the other figures, per run and group')
    .argument('<monitorId>')
    .option('--from <time>', 'ISO 8601 or epoch ms')
    .option('--to <time>', 'ISO 8601 or epoch ms')
    .option('--group-by <axis>', 'platform, region, channel, tag or mode', 'platform')
    .option('--json', 'print the trends as JSON')
    .action(
      cli.action(
        async (
          monitorId: string,
          o: { from?: string; to?: string; groupBy: string; json?: boolean },
        ) => {
          const client = await cli.client();
          const trends = await client.get<TrendsData>(
            `${monitorPath(PATHS.MONITOR, monitorId)}/trends`,
            { from: o.from, to: o.to, groupBy: o.groupBy },
            'the trends request',
          );
          print(cli, o.json, trends, () => trendsText(trends));
        },
      ),
    );
}

function watchCommand(cli: Cli): Command {
  return new Command('watch')
    .description(
      "watch a brand (e.g. one of the trends' discovered brands): a keyword group of its own from the next run",
    )
    .argument('<monitor>', "the monitor's id or its exact name")
    .argument('<name>', 'the brand (quote a name with spaces)')
    .option('--json', 'print {added, keyword, monitor} as JSON')
    .action(
      cli.action(async (monitor: string, name: string, o: { json?: boolean }) => {
        const client = await cli.client();
        const monitorId = await monitorIdOf(client, monitor);
        const result = await client.post<WatchResult>(
          pathTo(PATHS.MONITOR_WATCH, { monitorId }),
          { name },
          'the watch request',
        );
        print(cli, o.json, result, () => watchText(result));
      }),
    );
}

function changesCommand(cli: Cli): Command {
  return new Command('changes')
    .description('changes larger than the noise between runs, newest first')
    .argument('<monitorId>')
    .option('--from <time>', 'ISO 8601 or epoch ms')
    .option('--to <time>', 'ISO 8601 or epoch ms')
    .option('--kind <kind>', 'only this kind (brand_gained, brand_lost, position_moved, …)')
    .option('--limit <n>', 'at most this many, 1 to 500', '100')
    .option('--json', 'print the changes as JSON')
    .action(
      cli.action(
        async (
          monitorId: string,
          o: { from?: string; to?: string; kind?: string; limit: string; json?: boolean },
        ) => {
          const client = await cli.client();
          const changes = await client.get<ChangesData>(
            `${monitorPath(PATHS.MONITOR, monitorId)}/changes`,
            { from: o.from, to: o.to, kind: o.kind, limit: o.limit },
            'the changes request',
          );
          print(cli, o.json, changes, () => changesText(changes));
        },
      ),
    );
}

export function monitorCommand(cli: Cli): Command {
  const command = new Command('monitor').description(
    'recurring runs of a prompt set: create, list, show, run, trends, changes, watch',
  );
  for (const sub of [
    createCommand,
    listCommand,
    showCommand,
    runCommand,
    trendsCommand,
    changesCommand,
    watchCommand,
  ]) {
    command.addCommand(sub(cli));
  }
  return command;
}
