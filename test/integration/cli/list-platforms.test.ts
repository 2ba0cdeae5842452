/**
 * `aimon list` and `aimon platforms` against the API; a refused query, a
 * missing key and an unreachable service give their exit codes (1, 1, 4).
 */
import t from 'tap';
import { aimon } from '../../helpers/aimon.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { freePort } from '../../helpers/receiver.js';

// Sub tasks stay pending (no crawler): list and platforms need none.
const svc = await startEmbedded(t);
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
