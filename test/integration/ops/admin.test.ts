import t from 'tap';
import mongoose from 'mongoose';
import { runProcess } from '../../../infra/processes.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';

const env = { MONGO_URL: mongoUrl(), MONGO_DB: uniqueDbName('admin') };
const admin = (...args: string[]) => runProcess('bin/admin.ts', args, env);

t.teardown(async () => {
  const c = await mongoose.createConnection(env.MONGO_URL, { dbName: env.MONGO_DB }).asPromise();
  await c.dropDatabase();
  await c.close();
});

t.test('operator CLI manages users and keys with machine-readable output', async (t) => {
  const created = await admin('create-user', '--name', 'Acme Brand Team', '--json');
  t.equal(created.code, 0, created.output);
  const user = JSON.parse(created.output.trim());
  t.match(user, { userId: 1, name: 'Acme Brand Team', keyId: /^[0-9a-f]{12}$/, apiKey: /^amk_/ });

  const second = JSON.parse(
    (await admin('create-user', '--name', 'Other', '--json')).output.trim(),
  );
  t.equal(second.userId, 2, 'user ids are sequential numbers');

  const key = await admin('create-key', '--user', '1', '--json');
  t.equal(key.code, 0);
  const extra = JSON.parse(key.output.trim());
  t.match(extra, { userId: 1, keyId: /^[0-9a-f]{12}$/, apiKey: /^amk_/ });

  const keys = JSON.parse((await admin('list-keys', '--user', '1', '--json')).output.trim());
  t.same(
    keys.map((k: { keyId: string }) => k.keyId),
    [user.keyId, extra.keyId],
  );
  t.notOk(JSON.stringify(keys).includes('amk_'), 'listings never show secrets');
  t.notOk(JSON.stringify(keys).includes('hash'), 'nor their hashes');

  const revoked = JSON.parse(
    (await admin('revoke-key', '--key', extra.keyId, '--json')).output.trim(),
  );
  t.match(revoked, { keyId: extra.keyId, revokedAt: Number });

  const users = JSON.parse((await admin('list-users', '--json')).output.trim());
  t.same(
    users.map((u: { name: string }) => u.name),
    ['Acme Brand Team', 'Other'],
  );

  const conn = await mongoose.createConnection(env.MONGO_URL, { dbName: env.MONGO_DB }).asPromise();
  const stored = await conn.collection('apikeys').findOne({ _id: user.keyId });
  await conn.close();
  t.notOk(JSON.stringify(stored).includes(user.apiKey), 'the key itself is not stored');
  t.match(stored, { hash: /^[0-9a-f]{64}$/ });
});

t.test('operator CLI sets, shows and clears a default callback address', async (t) => {
  const url = 'https://hooks.example.com/monitor';
  const set = await admin('set-callback', '--user', '1', '--url', url, '--json');
  t.equal(set.code, 0, set.output);
  const settings = JSON.parse(set.output.trim());
  t.match(settings, { callbackUrl: url, secret: /^whsec_/ });
  const shown = JSON.parse((await admin('show-callback', '--user', '1', '--json')).output.trim());
  t.same(shown, settings, 'the secret stays until rotated');
  const refused = await admin('set-callback', '--user', '1', '--url', 'http://169.254.169.254/');
  t.not(refused.code, 0);
  t.match(refused.output, /linkLocal/);
  const cleared = JSON.parse(
    (await admin('clear-callback', '--user', '1', '--json')).output.trim(),
  );
  t.equal(cleared.callbackUrl, null);
});

t.test('operator mistakes exit non-zero with a message', async (t) => {
  const cases: [string[], RegExp][] = [
    [['create-user', '--json'], /--name is required/],
    [['create-key', '--user', 'x'], /--user must be a user id/],
    [['create-key', '--user', '999'], /user 999 not found/],
    [['revoke-key', '--key', 'nope'], /api key nope not found/],
    [['set-callback', '--user', '1'], /--url is required/],
    [['explode'], /unknown command explode/],
  ];
  // Independent processes: run side by side so the file stays well inside its time limit on a busy machine.
  const runs = await Promise.all(
    cases.map(async ([args, message]) => ({ args, message, ...(await admin(...args)) })),
  );
  for (const { args, message, code, output } of runs) {
    t.not(code, 0, args.join(' '));
    t.match(output, message, args.join(' '));
  }
});
