/**
 * `driver-check` against the Kimi replica standing in for the live site: in
 * process (every field, the files, the account held and released with the
 * site's verdict, through the crawler's own WebAttempt) and as the operator
 * runs it, the admin CLI as a real process. A wall or an expired session
 * leaves the account's stored login exactly as it was.
 */
import t from 'tap';
import { CHAT_PAGE_READY } from '../../../crawler/web/site-driver.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { browserDeps } from '../../../bin/accounts/browser.js';
import { driverCheck, formatDriverCheck } from '../../../bin/accounts/driver-check.js';
import type { AccountView } from '../../../services/accounts/view.js';
import type { CheckedOutAccount } from '../../../services/shared/contracts/accounts.js';
import { createBroker } from '../../../services/index.js';
import { loadConfig } from '../../../services/shared/config.js';
import { runProcess } from '../../../infra/processes.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';
import { startReplica } from '../../../replicas/index.js';

t.setTimeout(240_000);

const replica = await startReplica('kimi');
const env = {
  MONGO_URL: mongoUrl(),
  MONGO_DB: uniqueDbName('drivercheck'),
  ACCOUNTS_KEY: randomBytes(32).toString('base64'),
  KIMI_WEB_URL: replica.url,
  LOG_LEVEL: 'warn',
};
const config = loadConfig({ ...env, SERVICES: 'accounts' });
const broker = await createBroker(config);
await broker.start();
const call = <T>(action: string, params: object) =>
  broker.call<T, object>(`accounts.${action}`, params);
const dir = mkdtempSync(join(tmpdir(), 'driver-check-'));

t.teardown(async () => {
  const c = await mongoose.createConnection(env.MONGO_URL, { dbName: env.MONGO_DB }).asPromise();
  await c.dropDatabase();
  await c.close();
  await broker.stop();
  await replica.close();
});

const account = await call<AccountView>('import', {
  platform: 'kimi',
  label: 'replica',
  storageState: replica.storageState(),
});
const deps = browserDeps({ call, config, log: () => undefined }, false);
const viewOf = async () =>
  (await call<AccountView[]>('list', { platform: 'kimi' })).find((a) => a.id === account.id)!;
/** The login the account service holds for the account now. */
const storedLogin = async () =>
  (await call<CheckedOutAccount>('readState', { id: account.id })).storageState;

t.test('an answer: every field, the files, and the account released healthy', async (t) => {
  const outDir = join(dir, 'answer');
  const r = await driverCheck(deps, {
    platform: 'kimi',
    account: 'replica',
    prompt: '国产新能源汽车推荐',
    mode: 'reasoning_search',
    outDir,
  });
  t.equal(r.failure, null);
  t.equal(r.answer?.effectiveMode, 'reasoning_search', 'the mode read from the request body');
  t.equal(r.answer?.formatVersion, 'kimi-connect-1');
  t.ok(r.answer!.answerContent.length > 0);
  t.ok(r.answer!.referenceList.length > 0, 'search results');
  t.ok(r.answer!.reasoningProcess, 'reasoning');
  const lines = readFileSync(r.files.frames, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.match(
    lines[0],
    { kind: 'note', text: `open ${replica.url}/` },
    'the crawler attempt opened it',
  );
  t.match(lines[1], { kind: 'note', text: CHAT_PAGE_READY });
  // Then the mode controls' notes, then the chat call: the first request after the page was ready.
  t.match(
    lines.find((l) => l.kind === 'request'),
    { kind: 'request', url: /ChatService\/Chat/ },
    'the chat call is the first request the evidence holds',
  );
  t.equal(lines.filter((l) => l.kind === 'frame').length, r.frames);
  t.ok(r.frames > 2, 'every frame saved');
  t.same(readFileSync(r.files.screenshot!).subarray(0, 4), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  t.same(JSON.parse(readFileSync(r.files.answer, 'utf8')).answer, r.answer);
  t.equal(r.streamPageDifference, null, 'the stream and the page agree');
  const text = formatDriverCheck(r);
  t.match(text, /requested mode \(set on the page\): reasoning_search\n/);
  t.match(text, /effective mode \(what ran\): reasoning_search\n/);
  t.match(text, /stream format: kimi-connect-1\nanswer source: stream\n/);
  t.notMatch(text, /stream and page differ/);
  t.match(text, /references \(\d+\):\n {2}\[1\] /);
  const after = await viewOf();
  t.equal(after.holder, null, 'released');
  t.equal(after.state, 'healthy');
  t.ok(after.lastUsedAt, 'the prompt counts against the pacing');
});

t.test('a captcha: the failure named, frames kept, the account needs a person', async (t) => {
  const r = await driverCheck(deps, {
    platform: 'kimi',
    account: account.id,
    prompt: 'a question #replica:captcha',
    mode: 'standard',
    outDir: join(dir, 'captcha'),
  });
  t.equal(r.answer, null, 'never an answer');
  t.match(r.failure, { status: 'failed', retryable: true, account: { state: 'needs_human' } });
  t.match(formatDriverCheck(r), /FAILED \(failed, retryable\): .*\naccount → needs_human/);
  const after = await viewOf();
  t.equal(after.state, 'needs_human');
  t.ok(after.screenshot, 'with the screenshot of the challenge');
  t.equal(after.holder, null);
  await call('storeState', { id: account.id, storageState: replica.storageState() });
});

t.test('a wall or a dead session never destroys the stored login', async (t) => {
  await call('storeState', { id: account.id, storageState: replica.storageState() });
  const before = await storedLogin();
  // #replica:login_wall: the chat call answers 401 and the page then drops its token (logs out).
  const lapsed = await driverCheck(deps, {
    platform: 'kimi',
    account: 'replica',
    prompt: '问题 #replica:login_wall',
    mode: 'standard',
    outDir: join(dir, 'lapsed'),
  });
  t.match(lapsed.failure, {
    message: /^session_expired: HTTP 401 on the chat call .*\(kimi\)$/,
    account: { state: 'needs_human', kind: 'session_expired' },
  });
  t.match(await viewOf(), { state: 'needs_human', humanKind: 'session_expired', holder: null });
  t.same(await storedLogin(), before, 'the login stored before the check, exactly');
  t.ok(lapsed.files.screenshot, 'the screenshot of what the page showed');

  // #replica:expired: the site ends the session in the stream; the page clears its access token.
  const expired = await driverCheck(deps, {
    platform: 'kimi',
    account: 'replica',
    prompt: '问题 #replica:expired',
    mode: 'standard',
    outDir: join(dir, 'expired'),
  });
  t.match(expired.failure, { account: { state: 'needs_human', kind: 'session_expired' } });
  t.same(await storedLogin(), before, 'still the login stored before');

  // A page that opens on the login modal (the stored state holds no session): a login wall.
  await call('storeState', { id: account.id, storageState: { cookies: [], origins: [] } });
  const staleBefore = await storedLogin();
  const walled = await driverCheck(deps, {
    platform: 'kimi',
    account: 'replica',
    prompt: '问题',
    mode: 'standard',
    outDir: join(dir, 'walled'),
  });
  t.match(walled.failure, {
    message: /^login wall: /,
    account: { state: 'needs_human', kind: 'login_wall' },
  });
  t.match(formatDriverCheck(walled), /\naccount → needs_human \(login_wall\)/);
  t.same(await storedLogin(), staleBefore, 'the walled run stored nothing');
  t.match(await viewOf(), { state: 'needs_human', humanKind: 'login_wall' });
  await call('storeState', { id: account.id, storageState: replica.storageState() });
  t.match(await viewOf(), { state: 'healthy', humanKind: null }, 'a new login clears it');
});

t.test('an account running a sub task is not checked beside it', async (t) => {
  // Held the way a sub task's claim holds it (pacing would keep a claim off an account just used).
  await call('hold', { id: account.id, holder: 'sub-1 token' });
  await t.rejects(
    driverCheck(deps, {
      platform: 'kimi',
      account: 'replica',
      prompt: 'x',
      mode: 'standard',
      outDir: join(dir, 'busy'),
    }),
    /is running a sub task/,
  );
  await call('release', {
    id: account.id,
    holder: 'sub-1 token',
    verdict: { state: 'healthy' },
    prompted: false,
  });
});

t.test('the admin CLI: driver-check --json, and its usage errors', async (t) => {
  const r = await runProcess(
    'bin/admin.ts',
    [
      'driver-check',
      '--platform',
      'kimi',
      '--account',
      'replica',
      '--mode',
      'search',
      '--out',
      join(dir, 'cli'),
      '--json',
    ],
    env,
  );
  t.equal(r.code, 0, r.output);
  const out = JSON.parse(r.output.trim().split('\n').at(-1)!);
  t.match(out, {
    platform: 'kimi',
    requestedMode: 'search',
    answer: { effectiveMode: 'search', formatVersion: 'kimi-connect-1' },
    failure: null,
  });
  const bad = await runProcess(
    'bin/admin.ts',
    ['driver-check', '--platform', 'kimi', '--account', 'replica', '--mode', 'fast'],
    env,
  );
  t.equal(bad.code, 2);
  t.match(bad.output, /--mode must be one of standard, reasoning, search, reasoning_search/);
});
