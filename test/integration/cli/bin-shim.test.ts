/**
 * The package's `aimon` bin (bin/aimon.js, what `npx aimon` runs) loads the
 * TypeScript entry through tsx; the other CLI tests start the build instead.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { VERSION } from '../../../services/shared/version.js';
import { ROOT } from '../../../infra/processes.js';

t.test('the npm bin shim runs the CLI from its TypeScript source', async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/aimon.js', '--version'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' },
  });
  t.equal(stdout.trim(), VERSION);
});
