/**
 * `aimon export` writes the export route's file in each format and table,
 * byte for byte as served (the XLSX read back with exceljs), to -o (a relative
 * one from npm's INIT_CWD), to the server's file name in the current
 * directory, or to stdout.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import ExcelJS from 'exceljs';
import { aimon, startCliService } from '../../helpers/aimon.js';
import { download } from '../../helpers/exports.js';
import { ROOT } from '../../../infra/processes.js';
import { untilTaskFinal } from '../../helpers/task-final.js';

const { svc, user, env } = await startCliService(t, 40);
const M = '/api/business/monitor';

const submitted = await svc.client.post(
  `${M}/task/batch/shared`,
  {
    prompts: ['one', 'two'],
    platforms: [
      { platform: 'sandbox', mode: 'search' },
      { platform: 'sandbox-cn', mode: 'standard' },
    ],
  },
  user.token,
);
if (submitted.status !== 200) throw new Error(submitted.text);
const taskId = submitted.body.data.taskId as string;
await untilTaskFinal(svc.client, user.token, taskId, 30_000, 100);

t.test(
  'export writes the API file; -o chooses the path; the default name is the server one',
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'aimon-export-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    for (const [format, table] of [
      ['csv', 'subtasks'],
      ['ndjson', 'references'],
      ['xlsx', 'subtasks'],
    ] as const) {
      const file = join(dir, `out.${format}`);
      const run = await aimon(
        ['export', taskId, '--format', format, '--table', table, '-o', file],
        env,
      );
      t.equal(run.code, 0, `export ${format}`, { stderr: run.stderr });
      t.match(run.stderr, `wrote ${file} (`);
      const direct = await download(
        svc.client.baseUrl,
        `${M}/task/${taskId}/export?format=${format}&table=${table}`,
        user.token,
      );
      if (format === 'xlsx') {
        const book = new ExcelJS.Workbook();
        await book.xlsx.readFile(file);
        t.equal(book.getWorksheet(1)!.rowCount, 5, 'a header and four sub tasks');
        t.equal((await stat(file)).size > 1000, true);
      } else {
        t.equal(await readFile(file, 'utf8'), direct.body.toString('utf8'), `${format} as served`);
      }
    }
    const named = await aimon(['export', taskId], { ...env }, { cwd: dir });
    t.equal(named.code, 0, 'default name', { stderr: named.stderr });
    t.ok((await stat(join(dir, `${taskId}.csv`))).isFile(), 'the attachment name, in the cwd');
    // `npm run cli` runs in the project root and says in INIT_CWD where the user was.
    const relative = await aimon(
      ['export', taskId, '--format', 'xlsx', '-o', 'r.xlsx'],
      { ...env, INIT_CWD: dir },
      { cwd: ROOT },
    );
    t.equal(relative.code, 0, 'a relative -o under npm', { stderr: relative.stderr });
    t.match(relative.stderr, `wrote ${join(dir, 'r.xlsx')} (`);
    t.ok((await stat(join(dir, 'r.xlsx'))).size > 1000, 'the file is where the user ran npm');
    await t.rejects(stat(join(ROOT, 'r.xlsx')), { code: 'ENOENT' }, 'not in the project root');
    const piped = await aimon(['export', taskId, '--format', 'ndjson', '-o', '-'], env);
    t.equal(piped.stdout.trim().split('\n').length, 4, 'stdout: one line per sub task');
    const unknown = await aimon(['export', '00000000-0000-4000-8000-000000000000'], env);
    t.equal(unknown.code, 1, "an unknown task is the API's refusal");
    t.match(unknown.stderr, /^error: the service refused the export \(HTTP 404\): /);
  },
);
