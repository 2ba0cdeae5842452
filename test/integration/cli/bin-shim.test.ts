/**
 * The package's `aimon` bin (bin/aimon.js, what `npx aimon` runs) loads the
 * TypeScript entry through tsx; the other CLI tests start the build instead.
 * With AIMON_BUILD it runs the compiled entry of that build folder.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { VERSION } from '../../../services/shared/version.js';
import { ROOT } from '../../../infra/processes.js';

const run = (env: Record<string, string> = {}) =>
  promisify(execFile)(process.execPath, ['bin/aimon.js', '--version'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', ...env },
  });

t.test('the npm bin shim runs the CLI from its TypeScript source', async (t) => {
  const { stdout } = await run();
  t.equal(stdout.trim(), VERSION);
});

t.test('with AIMON_BUILD it runs that build’s compiled entry', async (t) => {
  const build = await mkdtemp(join(tmpdir(), 'aimon-build-'));
  t.teardown(() => rm(build, { recursive: true, force: true }));
  await mkdir(join(build, 'bin'));
  await writeFile(
    join(build, 'bin/aimon.js'),
    "console.log('the build, with', process.argv[2]);\n",
  );
  const { stdout } = await run({ AIMON_BUILD: build });
  t.equal(stdout.trim(), 'the build, with --version');
});
