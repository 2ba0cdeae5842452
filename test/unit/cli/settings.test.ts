import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { configPath, DEFAULT_URL, loadSettings, saveConfig } from '../../../bin/cli/settings.js';

const dir = await mkdtemp(join(tmpdir(), 'aimon-settings-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

t.test('the config path: AIMON_CONFIG, else under HOME', async (t) => {
  t.equal(configPath({ AIMON_CONFIG: '/x/c.json', HOME: '/h' }), '/x/c.json');
  t.equal(configPath({ HOME: '/h' }), '/h/.config/aimon/config.json');
});

t.test('defaults without a file or environment', async (t) => {
  t.same(await loadSettings({ HOME: dir }), {
    url: DEFAULT_URL,
    apiKey: undefined,
    configPath: join(dir, '.config/aimon/config.json'),
    cwd: process.cwd(),
  });
});

t.test(
  "relative paths start where npm was run: INIT_CWD, else the process's directory",
  async (t) => {
    t.equal((await loadSettings({ HOME: dir, INIT_CWD: '/where/npm/ran' })).cwd, '/where/npm/ran');
    t.equal((await loadSettings({ HOME: dir })).cwd, process.cwd());
  },
);

t.test('the file is written 0600 and read back; the environment wins over it', async (t) => {
  const path = join(dir, 'a', 'b', 'config.json');
  await saveConfig(path, { url: 'http://svc:3000', apiKey: 'amk_file' });
  t.equal((await stat(path)).mode & 0o777, 0o600);
  t.equal((await stat(join(dir, 'a', 'b'))).mode & 0o777, 0o700);
  t.same(await loadSettings({ AIMON_CONFIG: path }), {
    url: 'http://svc:3000',
    apiKey: 'amk_file',
    configPath: path,
    cwd: process.cwd(),
  });
  t.same(
    await loadSettings({
      AIMON_CONFIG: path,
      AIMON_URL: 'http://env:1/',
      AIMON_API_KEY: 'amk_env',
    }),
    { url: 'http://env:1', apiKey: 'amk_env', configPath: path, cwd: process.cwd() },
  );
});

t.test('an older, wider file is narrowed on save', async (t) => {
  const path = join(dir, 'wide.json');
  await writeFile(path, '{}', { mode: 0o644 });
  await saveConfig(path, { apiKey: 'k' });
  t.equal((await stat(path)).mode & 0o777, 0o600);
  t.same(JSON.parse(await readFile(path, 'utf8')), { apiKey: 'k' });
});

t.test('a file that is not a JSON object is a usage error naming it', async (t) => {
  const path = join(dir, 'bad.json');
  await writeFile(path, 'not json');
  await t.rejects(loadSettings({ AIMON_CONFIG: path }), {
    code: 1,
    message: /bad\.json is not a JSON object/,
  });
});
