/**
 * A second `npm start` in the same checkout while the first one serves: it
 * exits at once, says how to pick another port, and leaves the first instance
 * and its local database running. The checkout is a temporary folder with this
 * project's infra scripts, so its var/mongo-local is the test's own; the first
 * instance is what `npm start` runs once set up: the local MongoDB-wire server
 * of that checkout and the service on a port.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import t from 'tap';
import { baseEnv, ROOT, startProcess } from '../../../infra/processes.js';

// Outside the project: a script that wrongly ran `npm ci` here would find no package.json.
const checkout = await mkdtemp(join(tmpdir(), 'aimon-checkout-'));
await symlink(join(ROOT, 'infra'), join(checkout, 'infra'));
await mkdir(join(checkout, 'var'));
await symlink(join(ROOT, 'var/mongo-java'), join(checkout, 'var/mongo-java'));
t.teardown(() => rm(checkout, { recursive: true, force: true }));

/** bash with these arguments in the checkout. */
function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn('bash', args, {
    cwd: checkout,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

t.test('a second start leaves the first serving', async (t) => {
  const mongo = await run(['infra/mongo.sh', 'start', 'local']);
  t.teardown(() => run(['infra/mongo.sh', 'stop', 'local']));
  const mongoUrl = mongo.stdout.trim();
  t.match(mongoUrl, /^mongodb:\/\/127\.0\.0\.1:\d+\/$/, mongo.stderr);

  const first = startProcess('bin/serve.ts', [], {
    MONGO_URL: mongoUrl,
    MONGO_DB: 'first',
    PORT: '0',
    SERVICES: 'api,tasks,users',
    NODE_ID: 'first',
    LOG_LEVEL: 'warn',
  });
  t.teardown(() => first.stop());
  const [, apiUrl] = await first.waitFor(/READY node=first \S+ api=(\S+)/, 60_000);
  const port = Number(new URL(apiUrl!).port);

  const second = await run(['infra/start.sh'], { PORT: String(port) });
  t.equal(second.code, 1, 'the second does not serve');
  t.match(second.stderr, `port ${port} on 127.0.0.1 is taken`);
  t.match(second.stderr, `PORT=${port + 1} npm start`, 'it says how to run beside the first');

  const live = await fetch(`${apiUrl}/api/business/health/live`);
  t.equal(live.status, 200, 'the first serves');
  t.equal(first.child.exitCode, null, 'the first process runs');
  const conn = await mongoose.createConnection(mongoUrl, { dbName: 'first' }).asPromise();
  t.teardown(() => conn.close());
  t.same(await conn.db!.admin().ping(), { ok: 1 }, 'its database answers');
  const ready = await fetch(`${apiUrl}/api/business/health/ready`);
  t.equal(ready.status, 200, 'the first is ready (MongoDB included)');

  // A start on another port gets past the port check: it shares the database
  // (npm start and npm run admin take it this way) and leaves it running when it ends.
  const sharer = await run([
    '-c',
    '. infra/local-mongo.sh && use_local_mongo && echo "$MONGO_URL"',
  ]);
  t.equal(sharer.code, 0, sharer.stderr);
  t.equal(sharer.stdout.trim(), mongoUrl, 'the same database');
  t.same(await conn.db!.admin().ping(), { ok: 1 }, 'still up after the sharer ended');
});
