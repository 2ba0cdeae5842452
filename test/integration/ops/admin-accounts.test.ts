/** The operator's account commands end to end: the admin CLI as a real process on a real database. */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { runProcess } from '../../../infra/processes.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';
import { storageStateFor } from '../../../replicas/common/site.js';

t.setTimeout(240_000);

const env = {
  MONGO_URL: mongoUrl(),
  MONGO_DB: uniqueDbName('adminaccounts'),
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
};
const admin = (...args: string[]) => runProcess('bin/admin.ts', ['account', ...args], env);
const json = async (...args: string[]) => {
  const r = await admin(...args, '--json');
  if (r.code !== 0) throw new Error(`account ${args.join(' ')} failed: ${r.output}`);
  return JSON.parse(r.output.trim());
};

const dir = mkdtempSync(join(tmpdir(), 'accounts-'));
const stateFile = (name: string, token: string) => {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify(
      storageStateFor('https://www.kimi.com', {
        cookies: { kimi_session: token },
        localStorage: { refresh_token: `${token}-refresh` },
      }),
    ),
  );
  return path;
};

t.teardown(async () => {
  const c = await mongoose.createConnection(env.MONGO_URL, { dbName: env.MONGO_DB }).asPromise();
  await c.dropDatabase();
  await c.close();
});

t.test('add, import, list, disable, enable, remove and check accounts', async (t) => {
  const [kimi, deepseek, doubao] = await Promise.all([
    json(
      'add',
      '--platform',
      'moonshot',
      '--label',
      'kimi-sh',
      '--region',
      '310100',
      '--state-file',
      stateFile('kimi', 'tok-kimi-1'),
    ),
    json('add', '--platform', 'deepseek', '--label', 'ds-1'),
    json(
      'add',
      '--platform',
      'doubao',
      '--label',
      'db-1',
      '--state-file',
      stateFile('db', 'tok-db'),
    ),
  ]);
  t.match(kimi, {
    platform: 'kimi',
    label: 'kimi-sh',
    regionCode: '310100',
    state: 'healthy',
    hasState: true,
    quota: { prompts: 30, perMs: 10_800_000 },
    quotaLeft: 30,
    proxyKey: null,
  });
  t.match(deepseek, {
    platform: 'deepseek',
    state: 'needs_human',
    hasState: false,
    reason: /run account login or account import/,
  });

  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ cookies: [{ name: 'x' }], origins: [] }));
  const [dup, refused, check] = await Promise.all([
    admin('add', '--platform', 'kimi', '--label', 'kimi-sh'),
    admin('import', '--platform', 'deepseek', '--label', 'ds-1', '--file', bad),
    admin('add', '--platform', 'claude', '--label', 'claude'),
  ]);
  t.equal(dup.code, 1);
  t.match(dup.output, /kimi already has an account labelled kimi-sh/);
  t.equal(refused.code, 1);
  t.match(refused.output, /storageState\.cookies\.0\.value/);
  t.equal(check.code, 1);
  t.match(
    check.output,
    /claude is not a platform with a web channel/,
    'only web-channel platforms',
  );

  const imported = await json(
    'import',
    '--platform',
    'deepseek',
    '--label',
    'ds-1',
    '--file',
    stateFile('ds', 'tok-ds-1'),
  );
  t.match(
    imported,
    { id: deepseek.id, state: 'healthy', hasState: true, reason: null },
    'the same account, now logged in',
  );

  const [listed, kimiOnly, text] = await Promise.all([
    json('list'),
    json('list', '--platform', 'kimi'),
    admin('list'),
  ]);
  t.same(
    listed.map((a: { label: string }) => a.label),
    ['ds-1', 'db-1', 'kimi-sh'],
  );
  t.same(
    kimiOnly.map((a: { id: string }) => a.id),
    [kimi.id],
  );
  t.equal(text.code, 0);
  t.match(
    text.output,
    /id\s+platform\s+label\s+region\s+proxy port\s+state\s+reason\s+cool until\s+last use\s+quota left\s+screenshot/,
  );
  t.match(
    text.output,
    new RegExp(
      `${kimi.id}\\s+kimi\\s+kimi-sh\\s+310100\\s+-\\s+healthy\\s+-\\s+-\\s+-\\s+30/30\\s+-`,
    ),
  );
  t.notOk(
    /tok-kimi|tok-ds|kimi_session|refresh_token/.test(text.output + JSON.stringify(listed)),
    'never the login',
  );

  t.match(await json('disable', '--id', kimi.id), {
    state: 'disabled',
    reason: 'disabled by an operator',
  });
  t.match(await json('enable', '--id', kimi.id), { state: 'healthy', reason: null });
  t.same(await json('remove', '--id', kimi.id), { id: kimi.id, removed: true });
  const [after, gone] = await Promise.all([json('list'), admin('disable', '--id', kimi.id)]);
  t.same(
    after.map((a: { id: string }) => a.id),
    [deepseek.id, doubao.id],
  );
  t.equal(gone.code, 1);
  t.match(gone.output, new RegExp(`account ${kimi.id} not found`));

  const conn = await mongoose.createConnection(env.MONGO_URL, { dbName: env.MONGO_DB }).asPromise();
  const raw = JSON.stringify(await conn.collection('accounts').find().toArray());
  await conn.close();
  t.notOk(
    /tok-ds|tok-db|kimi_session|refresh_token/.test(raw),
    'the database holds no readable login',
  );
});

t.test('mistakes and a missing key exit non-zero with a message', async (t) => {
  const cases: [string[], RegExp, number][] = [
    [['add', '--label', 'x'], /--platform is required/, 2],
    [
      ['add', '--platform', 'sandbox-cn', '--label', 'x'],
      /sandbox-cn is not a platform with a web channel/,
      1,
    ],
    [['rename'], /unknown account command rename/, 2],
  ];
  const [keyless, ...results] = await Promise.all([
    runProcess(
      'bin/admin.ts',
      [
        'account',
        'add',
        '--platform',
        'kimi',
        '--label',
        'k',
        '--state-file',
        stateFile('k', 'tok-k'),
      ],
      { MONGO_URL: env.MONGO_URL, MONGO_DB: env.MONGO_DB },
    ),
    ...cases.map(([args]) => admin(...args)),
  ]);
  cases.forEach(([args, message, code], i) => {
    t.equal(results[i]!.code, code, args.join(' '));
    t.match(results[i]!.output, message, args.join(' '));
  });
  t.equal(keyless.code, 1);
  t.match(keyless.output, /ACCOUNTS_KEY is not set/);
});
