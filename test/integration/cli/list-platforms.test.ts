/**
 * `aimon list` and `aimon platforms` against the API; a refused query, a
 * missing key and an unreachable service give their exit codes (1, 1, 4).
 * `aimon apply -f` twice (the second changes nothing) after its dry run, and
 * `aimon monitor create|list|show|run` against the monitors service.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { aimon } from '../../helpers/aimon.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { freePort } from '../../../bench/webhook-receiver.js';

// Sub tasks stay pending (no crawler): list, platforms and monitor runs need none.
const svc = await startEmbedded(t, { SERVICES: 'api,tasks,users,monitors' });
const user = await svc.newUser();
const url = svc.client.baseUrl;
const M = '/api/business/monitor';
for (const prompt of ['first', 'second', 'third']) {
  await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: [prompt], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    user.token,
  );
}

t.test('list refuses a bad status with the rule; no key is a usage error', async (t) => {
  const env = { AIMON_URL: url, AIMON_API_KEY: user.apiKey };
  const bad = await aimon(['list', '--status', 'done'], env);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /^error: the service refused the task list request \(HTTP 400\):/);
  t.match(bad.stderr, /\n {2}- status: /);
  const pending = await aimon(['list', '--status', 'pending', '--json'], env);
  t.equal(JSON.parse(pending.stdout).total, 3);

  const none = await aimon(['list'], { AIMON_URL: url });
  t.equal(none.code, 1);
  t.match(none.stderr, /no API key: run `aimon login` or set AIMON_API_KEY/);
});

t.test('platforms: the catalogue as a table and as the API JSON', async (t) => {
  const env = { AIMON_URL: url, AIMON_API_KEY: user.apiKey };
  const table = await aimon(['platforms'], env);
  t.equal(table.code, 0, 'exit 0', { stderr: table.stderr });
  t.match(table.stdout, /│ sandbox\s+│ [^│]+│ api: standard, reasoning, search,/);
  t.match(
    table.stdout,
    /│ api: unknown \(no crawler node is up yet: submitted work waits\) │/,
    'no crawler node in this service',
  );
  const json = await aimon(['platforms', '--json'], env);
  const api = await svc.client.get(`${M}/platforms`, user.token);
  t.same(JSON.parse(json.stdout), api.body.data);
});

t.test('an unreachable service exits 4', async (t) => {
  const port = await freePort();
  const run = await aimon(['list'], { AIMON_URL: `http://127.0.0.1:${port}`, AIMON_API_KEY: 'k' });
  t.equal(run.code, 4);
  t.match(run.stderr, `cannot reach the service at http://127.0.0.1:${port} (ECONNREFUSED)`);
});

t.test('apply -f: a dry run, then create, then nothing to change; monitor commands', async (t) => {
  const owner = await svc.newUser('monitor-owner');
  const env = { AIMON_URL: url, AIMON_API_KEY: owner.apiKey };
  const dir = mkdtempSync(join(tmpdir(), 'aimon-apply-'));
  const file = join(dir, 'monitors.yaml');
  const yaml = `monitors:
  - name: CRM daily
    prompts: [best CRM, {text: CRM for a bakery, tags: [smb]}]
    platforms: [{platform: sandbox, mode: search}]
    monitorKeywords: Acme, Globex
    samples: {min: 3, max: 10, targetWidth: 0.4}
    schedule: {cron: "0 9 * * *", timezone: Asia/Shanghai}
    enabled: false
`;
  writeFileSync(file, yaml);
  const dry = await aimon(['apply', '-f', file, '--dry-run'], env);
  t.equal(dry.code, 0, dry.stderr);
  t.match(
    dry.stdout,
    /^\+ create "CRM daily"\nwould create 1, would update 0, 0 unchanged \(dry run/,
  );
  t.equal((await svc.client.get(`${M}/monitors`, owner.token)).body.data.total, 0, 'nothing made');

  const applied = await aimon(['apply', '-f', file], env);
  t.match(applied.stdout, /created 1, updated 0, 0 unchanged/);
  const [stored] = (await svc.client.get(`${M}/monitors`, owner.token)).body.data.monitors;
  t.equal(stored.name, 'CRM daily');
  const again = await aimon(['apply', '-f', file], env);
  t.equal(again.code, 0);
  t.match(again.stdout, /^= unchanged "CRM daily"\nnothing to change: 1 monitors up to date$/m);
  const after = (await svc.client.get(`${M}/monitors/${stored.monitorId}`, owner.token)).body.data;
  t.equal(after.updatedAt, stored.updatedAt, 'the second apply wrote nothing');

  const created = await aimon(
    ['monitor', 'create', 'best tool', '--name', 'Tools', '-p', 'sandbox:search'].concat([
      '--keywords',
      'Hooli',
      '--every',
      '60',
      '--samples',
      '2',
    ]),
    env,
  );
  t.equal(created.code, 0, created.stderr);
  const id = created.stdout.trim();
  const list = await aimon(['monitor', 'list'], env);
  t.match(list.stdout, /│ Tools +│ yes +│ every 60 min +│ 1 +│ sandbox \(api\) search │ 2 +│/);
  t.match(list.stdout, /page 1 of 1, 2 monitors/);
  const run = await aimon(['monitor', 'run', id], env);
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /^run \S+ \(manual, slot [^)]+\): (starting|running)/m);
  const show = await aimon(['monitor', 'show', id], env);
  t.match(show.stdout, /^Tools \(/);
  t.match(show.stdout, /^runs: 1$/m);
});
