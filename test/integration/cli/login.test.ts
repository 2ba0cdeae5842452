/**
 * `aimon login` checks the key and writes a 0600 config file that later
 * commands use without any environment; the environment wins over the file;
 * a refused key exits 4 and saves nothing.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { aimon } from '../../helpers/aimon.js';
import { startEmbedded } from '../../helpers/cluster.js';

// Sub tasks stay pending (no crawler): listing them needs none.
const svc = await startEmbedded(t);
const user = await svc.newUser();
const url = svc.client.baseUrl;
const M = '/api/business/monitor';
const dir = await mkdtemp(join(tmpdir(), 'aimon-login-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const taskIds: string[] = [];
for (const prompt of ['first', 'second', 'third']) {
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: [prompt], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    user.token,
  );
  taskIds.push(res.body.data.taskId as string);
}

t.test('login writes a 0600 config file that later commands use', async (t) => {
  const config = join(dir, 'nested', 'aimon.json');
  const login = await aimon(['login', '--key', user.apiKey, '--url', `${url}/`], {
    AIMON_CONFIG: config,
  });
  t.equal(login.code, 0, 'exit 0', { stderr: login.stderr });
  t.match(login.stderr, `logged in to ${url}; saved to ${config}`);
  t.equal((await stat(config)).mode & 0o777, 0o600, 'owner only');
  t.same(JSON.parse(await readFile(config, 'utf8')), { url, apiKey: user.apiKey });

  const list = await aimon(['list', '--size', '2'], { AIMON_CONFIG: config });
  t.equal(list.code, 0, 'list with the saved key', { stderr: list.stderr });
  t.match(list.stdout, 'page 1 of 2, 3 tasks');
  t.ok(list.stdout.includes(taskIds[2]!), 'newest first');
  t.notOk(list.stdout.includes(taskIds[0]!), 'the oldest is on page 2');
  const page2 = await aimon(['list', '--size', '2', '--page', '2', '--json'], {
    AIMON_CONFIG: config,
  });
  t.same(
    JSON.parse(page2.stdout).tasks.map((x: { taskId: string }) => x.taskId),
    [taskIds[0]],
  );

  const wrong = await aimon(['list'], { AIMON_CONFIG: config, AIMON_API_KEY: 'amk_wrong' });
  t.equal(wrong.code, 4, 'the environment wins over the file: a wrong key is an auth failure');
  t.match(wrong.stderr, /^error: the service refused the API key \(HTTP 401\): /);
});

t.test('login reads the key from stdin; a refused key saves nothing', async (t) => {
  const config = join(dir, 'stdin.json');
  const ok = await aimon(
    ['login', '--url', url],
    { AIMON_CONFIG: config },
    { stdin: `${user.apiKey}\n` },
  );
  t.equal(ok.code, 0, 'exit 0', { stderr: ok.stderr });
  t.equal(JSON.parse(await readFile(config, 'utf8')).apiKey, user.apiKey);

  // `--key -` keeps the key off the command line that npm's banner prints.
  const dashConfig = join(dir, 'dash.json');
  const dash = await aimon(
    ['login', '--key', '-', '--url', url],
    { AIMON_CONFIG: dashConfig },
    { stdin: `${user.apiKey}\nignored second line\n` },
  );
  t.equal(dash.code, 0, '--key - reads stdin', { stderr: dash.stderr });
  t.equal(JSON.parse(await readFile(dashConfig, 'utf8')).apiKey, user.apiKey);
  t.notOk((dash.stdout + dash.stderr).includes(user.apiKey), 'the key is never printed');

  const before = await readFile(config, 'utf8');
  const bad = await aimon(['login', '--key', 'amk_nope'], { AIMON_CONFIG: config });
  t.equal(bad.code, 4);
  t.match(bad.stderr, /the service refused the API key \(HTTP 401\)/);
  t.equal(await readFile(config, 'utf8'), before, 'the file is unchanged');

  await writeFile(join(dir, 'broken.json'), '[1,2]');
  const broken = await aimon(['list'], { AIMON_CONFIG: join(dir, 'broken.json') });
  t.equal(broken.code, 1);
  t.match(broken.stderr, /is not a JSON object/);
});
