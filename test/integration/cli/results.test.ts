/**
 * Reading a finished task with `aimon`: `status`, and `result` in each
 * format (the table read for its rows, JSON and CSV parsed and compared with
 * the API's own result).
 */
import t from 'tap';
import { CSV_HEADER } from '../../../bin/cli/result-format.js';
import { aimon, startCliService } from '../../helpers/aimon.js';
import { parseCsv } from '../../helpers/exports.js';
import { untilTaskFinal } from '../../helpers/task-final.js';

const { svc, user, env } = await startCliService(t, 40);
const M = '/api/business/monitor';

const PROMPTS = ['Which CRM, "really", suits us?', 'broken #fail:401'];
const submitted = await svc.client.post(
  `${M}/task/batch/shared`,
  {
    prompts: PROMPTS,
    platforms: [
      { platform: 'sandbox', mode: 'search' },
      { platform: 'sandbox-cn', mode: 'standard' },
    ],
    monitorKeywords: 'Acme, Globex',
  },
  user.token,
);
if (submitted.status !== 200) throw new Error(submitted.text);
const taskId = submitted.body.data.taskId as string;
await untilTaskFinal(svc.client, user.token, taskId, 30_000, 100);
const api = (await svc.client.get(`${M}/task/result/${taskId}`, user.token)).body.data as {
  status: string;
  subTaskList: {
    subTaskId: string;
    prompt: string;
    platform: string;
    status: string;
    answerContent: string | null;
    referenceList: unknown[];
    citationList: unknown[];
    errorMessage: string | null;
    mentions: { keyword: string; count: number; position: number | null }[];
  }[];
};

t.test('status: the headline, both summary tables and the progress message', async (t) => {
  const [run, json] = await Promise.all([
    aimon(['status', taskId], env),
    aimon(['status', taskId, '--json'], env),
  ]);
  t.equal(run.code, 0, 'exit 0: status without --wait only reports', { stderr: run.stderr });
  t.match(run.stdout, `task ${taskId}: partial_completed (2 completed, 2 failed, 4 sub tasks)`);
  t.match(run.stdout, /│ Which CRM, "really", suits us\? │ completed\s+│ completed\s+│/);
  t.match(run.stdout.trim().split('\n').at(-1), /^2\/4 completed, 2 failed/);
  t.equal(JSON.parse(json.stdout).status, 'partial_completed');
});

t.test('result --format json is the API result', async (t) => {
  const run = await aimon(['result', taskId, '--format', 'json'], env);
  t.equal(run.code, 0, 'exit 0', { stderr: run.stderr });
  t.same(JSON.parse(run.stdout), api);
});

t.test('result --format csv: a header and one RFC 4180 record per sub task', async (t) => {
  const run = await aimon(['result', taskId, '--format', 'csv'], env);
  t.equal(run.code, 0, 'exit 0', { stderr: run.stderr });
  const [header, ...records] = parseCsv(run.stdout);
  t.same(header, CSV_HEADER);
  const col = (name: string) => header!.indexOf(name);
  t.same(
    records.map((r) => [
      r[col('subTaskId')],
      r[col('prompt')],
      r[col('platform')],
      r[col('status')],
      r[col('answerContent')],
      r[col('references')],
      r[col('citations')],
      r[col('errorMessage')],
    ]),
    api.subTaskList.map((s) => [
      s.subTaskId,
      s.prompt,
      s.platform,
      s.status,
      s.answerContent ?? '',
      String(s.referenceList.length),
      String(s.citationList.length),
      s.errorMessage ?? '',
    ]),
    'every field as the API has it, quotes and newlines included',
  );
  t.ok(
    api.subTaskList.some((s) => (s.answerContent ?? '').includes('\n')),
    'answers span lines',
  );
});

t.test(
  'result (table): a row per sub task with its status, mentions and answer or error',
  async (t) => {
    const [run, bad] = await Promise.all([
      aimon(['result', taskId], env),
      aimon(['result', taskId, '--format', 'yaml'], env),
    ]);
    t.equal(run.code, 0, 'exit 0', { stderr: run.stderr });
    const rows = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('│') && !l.includes('│ prompt '));
    t.equal(rows.length, 4, 'four sub tasks');
    const cells = rows.map((r) =>
      r
        .split('│')
        .map((c) => c.trim())
        .slice(1, -1),
    );
    t.same(
      cells.map((c) => [c[1], c[2], c[3]]),
      api.subTaskList.map((s) => [
        `${s.platform} (api)`,
        s.platform === 'sandbox' ? 'search' : 'standard',
        s.status,
      ]),
    );
    t.same(
      cells.map((c) => c[4]),
      api.subTaskList.map((s) =>
        s.status !== 'completed'
          ? ''
          : s.mentions
              .filter((m) => m.count > 0)
              .map((m) => `${m.keyword} #${m.position}`)
              .join(', ') || '-',
      ),
      'the groups each answer mentions, with their positions',
    );
    const lines = run.stdout.trimEnd().split('\n').slice(1);
    t.ok(
      lines.every((l) => l.length <= 100),
      'stdout is no terminal: the table fits 100 columns',
    );
    const failed = api.subTaskList.findIndex((s) => s.status !== 'completed');
    t.ok(
      api.subTaskList[failed]!.errorMessage!.startsWith(cells[failed]![5]!.replace(/…$/, '')),
      'a failed sub task shows (the start of) its error',
    );
    t.equal(bad.code, 1, 'an unknown format is a usage error');
    t.match(bad.stderr, /Allowed choices are table, json, csv/);
  },
);
