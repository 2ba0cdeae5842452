/**
 * `aimon export <taskId> [--format csv|ndjson|xlsx] [--table …] [-o file]`:
 * downloads the export route's file, streamed to disk (or stdout with -o -); a
 * relative -o is taken from where the user ran the command (Settings.cwd).
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Command, Option } from 'commander';
import { PATHS, pathTo } from '../../../services/shared/contracts/http-paths.js';
import { withQuery } from '../api-client.js';
import { attachmentName } from '../attachment.js';
import type { Cli } from '../context.js';
import { EXPORT_FORMATS, EXPORT_TABLES } from '../export-formats.js';

interface Options {
  format: string;
  table: string;
  output?: string;
}

export function exportCommand(cli: Cli): Command {
  return new Command('export')
    .description("download a task's result as a file (csv with BOM, ndjson or xlsx)")
    .argument('<taskId>')
    .addOption(
      new Option('--format <format>', 'file format').choices(EXPORT_FORMATS).default('csv'),
    )
    .addOption(
      new Option(
        '--table <table>',
        'subtasks: a row per sub task; references: a row per reference; discovered: a row per unwatched brand the answers recommend; opportunities: a row per domain cited where a competitor is named and you are not (xlsx has every table)',
      )
        .choices(EXPORT_TABLES)
        .default('subtasks'),
    )
    .option(
      '-o, --output <file>',
      "where to write it, - for stdout (default: the server's file name)",
    )
    .action(
      cli.action(async (taskId: string, o: Options) => {
        const client = await cli.client();
        const path = withQuery(pathTo(PATHS.TASK_EXPORT, { taskId }), {
          format: o.format,
          table: o.table,
        });
        const res = await client.open(path, {}, 'the export');
        const body = Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
        if (o.output === '-') {
          await pipeline(body, cli.stdout, { end: false });
          return;
        }
        const file = resolve(
          (await cli.settings()).cwd,
          o.output ??
            attachmentName(res.headers.get('content-disposition'), `${taskId}.${o.format}`),
        );
        await pipeline(body, createWriteStream(file));
        cli.note(`wrote ${file} (${(await stat(file)).size} bytes)`);
      }),
    );
}
