/**
 * The accounts service over the real NATS and MongoDB-wire servers: two
 * service nodes on one database, a third node calling them round-robin.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { ServiceBroker } from 'moleculer';
import mongoose from 'mongoose';
import { accountReplCommands } from '../../../bin/accounts/repl.js';
import { brokerOptions } from '../../../moleculer.config.js';
import { accountsService } from '../../../services/accounts/accounts.service.js';
import type { PacingTable } from '../../../services/accounts/pacing.js';
import type { AccountView } from '../../../services/accounts/view.js';
import { loadConfig } from '../../../services/shared/config.js';
import type {
  CheckedOutAccount,
  ClaimAnswer,
  CoverageAnswer,
  StorageState,
} from '../../../services/shared/contracts/accounts.js';
import { mongoUrl, natsUrl, uniqueDbName } from '../../helpers/servers.js';
import { storageStateFor } from '../../../replicas/common/site.js';

const KEY = randomBytes(32).toString('base64');
const dbName = uniqueDbName('accounts');
const clock = { t: 1_800_000_000_000, now: () => clock.t };
const HOUR = 3_600_000;
// Kimi: 2 prompts per hour here, so the window is quick to fill; 20 s gap, jitter 0.3 drawn at 0.5.
const pacing: PacingTable = (p) => ({
  quota: p === 'kimi' ? { prompts: 2, perMs: HOUR } : null,
  gapMs: 20_000,
});
const GAP = 23_000;

function nodeConfig(id: string, env: Record<string, string> = {}) {
  return loadConfig({
    MONGO_URL: mongoUrl(),
    MONGO_DB: dbName,
    TRANSPORTER: natsUrl(),
    NAMESPACE: dbName,
    NODE_ID: `${dbName}-${id}`,
    LOG_LEVEL: 'warn',
    ACCOUNTS_KEY: KEY,
    ACCOUNT_HOLD_MS: '60000',
    ...env,
  });
}

function serviceNode(id: string, env: Record<string, string> = {}) {
  const config = nodeConfig(id, env);
  const broker = new ServiceBroker(brokerOptions(config));
  broker.createService(accountsService(config, clock, pacing, () => 0.5));
  return broker;
}

const nodes = [serviceNode('a'), serviceNode('b')];
const client = new ServiceBroker(brokerOptions(nodeConfig('client')));
let db: mongoose.Connection;

t.before(async () => {
  await Promise.all([...nodes, client].map((b) => b.start()));
  const deadline = Date.now() + 20_000;
  while (
    client.registry.getServiceList({ onlyAvailable: true }).filter((s) => s.name === 'accounts')
      .length < 2
  ) {
    if (Date.now() > deadline) throw new Error('accounts nodes not discovered');
    await new Promise((r) => setTimeout(r, 100));
  }
  db = await mongoose.createConnection(mongoUrl(), { dbName }).asPromise();
});

t.teardown(async () => {
  await db?.dropDatabase().catch(() => undefined);
  await db?.close();
  await Promise.all([client, ...nodes].map((b) => b.stop()));
});

const call = <T>(action: string, params: object) =>
  client.call<T, object>(`accounts.${action}`, params);
const claim = (p: {
  platform: string;
  regionCode?: string | null;
  holder: string;
  ports?: string[];
  avoid?: string[];
}) => call<ClaimAnswer>('claim', { regionCode: null, ports: [], ...p });
const session = (token: string): StorageState =>
  storageStateFor('https://www.kimi.com', {
    cookies: { kimi_session: token },
    localStorage: { access_token: `${token}-access` },
  });
const add = (platform: string, label: string, extra: object = {}) =>
  call<AccountView>('add', { platform, label, storageState: session(`secret-${label}`), ...extra });
const byId = async (id: string) =>
  (await call<AccountView[]>('list', {})).find((a) => a.id === id)!;

t.test(
  'twenty parallel claims over two nodes hand one account to exactly one holder',
  async (t) => {
    const acc = await add('deepseek', 'solo');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 3 === 0 ? nodes[i % 2]! : client).call<ClaimAnswer, object>('accounts.claim', {
          platform: 'deepseek',
          regionCode: null,
          holder: `sub-${i} tok`,
          ports: [],
        }),
      ),
    );
    const winners = answers.filter((a) => a.account !== null);
    t.equal(winners.length, 1, 'exactly one claim won');
    t.match(winners[0]!.account, {
      id: acc.id,
      label: 'solo',
      platform: 'deepseek',
      proxyKey: null,
    });
    for (const a of answers.filter((x) => x.account === null)) {
      t.equal(
        (a as { reason: string }).reason,
        'no usable deepseek web account (1 accounts: 1 busy)',
      );
    }
    const holder = `sub-${answers.indexOf(winners[0]!)} tok`;
    t.equal((await byId(acc.id)).holder, holder);

    const out = await call<CheckedOutAccount>('checkout', { id: acc.id, holder });
    t.same(out.storageState, session('secret-solo'), 'the state decrypts for its holder');
    t.match(out, { locale: 'zh-CN', timezoneId: 'Asia/Shanghai', regionCode: null });
    await t.rejects(call('checkout', { id: acc.id, holder: 'other tok' }), { code: 404 });
    t.same(
      await call('release', {
        id: acc.id,
        holder: 'other tok',
        verdict: { state: 'healthy' },
        prompted: true,
      }),
      { ok: false },
    );
    t.same(
      await call('release', { id: acc.id, holder, verdict: { state: 'healthy' }, prompted: false }),
      { ok: true },
    );
    t.equal(
      (await claim({ platform: 'deepseek', holder: 'next tok' })).account?.id,
      acc.id,
      'free again at once: no prompt sent',
    );
    t.same(
      await call('release', {
        id: acc.id,
        holder: 'next tok',
        verdict: { state: 'healthy' },
        prompted: false,
      }),
      { ok: true },
    );
    await call('remove', { id: acc.id });
  },
);

t.test(
  'a prompt paces the account by the gap with jitter and counts against the quota',
  async (t) => {
    const acc = await add('kimi', 'paced');
    const holderAt = (i: number) => `paced-${i} tok`;
    const runOnce = async (i: number) => {
      const got = await claim({ platform: 'kimi', holder: holderAt(i) });
      t.equal(got.account?.id, acc.id, `claim ${i}`);
      t.same(
        await call('release', {
          id: acc.id,
          holder: holderAt(i),
          verdict: { state: 'healthy' },
          prompted: true,
        }),
        { ok: true },
      );
    };
    const start = clock.t;
    await runOnce(1);
    let view = await byId(acc.id);
    t.match(view, {
      lastUsedAt: start,
      availableAt: start + GAP,
      quotaLeft: 1,
      quota: { prompts: 2, perMs: HOUR },
    });
    clock.t = start + GAP - 1;
    t.match(await claim({ platform: 'kimi', holder: 'early tok' }), {
      account: null,
      reason: /1 pacing gap/,
    });
    clock.t = start + GAP;
    await runOnce(2);
    view = await byId(acc.id);
    t.equal(view.quotaLeft, 0);
    t.equal(view.availableAt, start + HOUR, 'free when the first prompt leaves the window');
    clock.t = start + 10 * GAP;
    t.match(await claim({ platform: 'kimi', holder: 'full tok' }), {
      account: null,
      reason: /1 quota used up/,
    });
    t.same((await call<{ counts: object }>('usable', {})).counts, {});
    clock.t = start + HOUR;
    t.same((await call<{ counts: object }>('usable', {})).counts, { 'kimi|': 1 });
    await runOnce(3);
    t.equal((await byId(acc.id)).quotaLeft, 0, 'the second and third prompts fill the new window');
    await call('remove', { id: acc.id });
  },
);

t.test(
  'verdicts: cooling until a time, needs_human with a screenshot, disabled stays',
  async (t) => {
    clock.t += 2 * HOUR;
    const acc = await add('doubao', 'verdicts');
    await claim({ platform: 'doubao', holder: 'v1 tok' });
    const until = clock.t + 600_000;
    await t.rejects(
      call('release', {
        id: acc.id,
        holder: 'v1 tok',
        verdict: { state: 'cooling', reason: 'r' },
        prompted: true,
      }),
      { code: 400, message: /verdict\.untilMs: is required for cooling/ },
    );
    await t.rejects(
      call('release', {
        id: acc.id,
        holder: 'v1 tok',
        verdict: { state: 'needs_human' },
        prompted: true,
      }),
      { code: 400, message: /verdict\.reason: is required for needs_human/ },
    );
    await call('release', {
      id: acc.id,
      holder: 'v1 tok',
      verdict: { state: 'cooling', untilMs: until, reason: 'doubao rate limit' },
      prompted: true,
    });
    t.match(await byId(acc.id), {
      state: 'cooling',
      coolUntil: until,
      reason: 'doubao rate limit',
      availableAt: until,
    });
    t.match(await claim({ platform: 'doubao', holder: 'v2 tok' }), {
      account: null,
      reason: /1 cooling/,
    });
    clock.t = until;
    t.equal(
      (await claim({ platform: 'doubao', holder: 'v2 tok' })).account?.id,
      acc.id,
      'usable again at coolUntil',
    );
    await call('release', {
      id: acc.id,
      holder: 'v2 tok',
      verdict: { state: 'healthy' },
      prompted: true,
    });
    t.match(await byId(acc.id), { state: 'healthy', coolUntil: null, reason: null });

    clock.t += HOUR;
    await claim({ platform: 'doubao', holder: 'v3 tok' });
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    await call('release', {
      id: acc.id,
      holder: 'v3 tok',
      verdict: {
        state: 'needs_human',
        reason: 'doubao login wall',
        screenshotPng: png.toString('base64'),
      },
      prompted: false,
    });
    const view = await byId(acc.id);
    t.match(view, {
      state: 'needs_human',
      reason: 'doubao login wall',
      screenshot:
        /^http:\/\/127\.0\.0\.1:3000\/api\/business\/monitor\/screenshot\/[0-9a-f]{32}\.png$/,
    });
    const shotId = /([0-9a-f]{32})\.png$/.exec(view.screenshot!)![1]!;
    const shot = await db.collection('screenshots').findOne({ _id: shotId as never });
    t.same(Buffer.from(shot!.png.buffer), png, 'the screenshot is stored');
    t.match(await claim({ platform: 'doubao', holder: 'v4 tok' }), {
      account: null,
      reason: /1 needs_human/,
    });

    await call('setState', { id: acc.id, state: 'healthy' });
    t.equal(
      await db.collection('screenshots').countDocuments({ _id: shotId as never }),
      0,
      'the screenshot goes once the account is healthy again',
    );
    t.match(await byId(acc.id), { state: 'healthy', reason: null, screenshot: null });
    await claim({ platform: 'doubao', holder: 'v5 tok' });
    await call('setState', { id: acc.id, state: 'disabled' });
    t.same(
      await call('release', {
        id: acc.id,
        holder: 'v5 tok',
        verdict: { state: 'healthy' },
        prompted: true,
      }),
      { ok: true },
    );
    t.match(
      await byId(acc.id),
      { state: 'disabled', holder: null },
      "a run ending does not undo the operator's disable",
    );
    await call('remove', { id: acc.id });
  },
);

t.test(
  'a regional account is pinned to the least-used port of its region and keeps it',
  async (t) => {
    clock.t += 4 * HOUR;
    const [p1, p2] = ['127.0.0.1:8001', '127.0.0.1:8002'];
    const first = await add('deepseek', 'sh-1', { regionCode: '310100' });
    const second = await add('deepseek', 'sh-2', { regionCode: '310100' });
    const other = await add('deepseek', 'bj-1', { regionCode: '110100' });
    t.match(
      await claim({ platform: 'deepseek', regionCode: '310100', holder: 'r1 tok', ports: [] }),
      {
        account: null,
        reason: 'no usable deepseek web account in region 310100 (2 accounts: 2 no proxy port)',
      },
    );
    const a = await claim({
      platform: 'deepseek',
      regionCode: '310100',
      holder: 'r1 tok',
      ports: [p1, p2],
    });
    const b = await claim({
      platform: 'deepseek',
      regionCode: '310100',
      holder: 'r2 tok',
      ports: [p1, p2],
    });
    t.same(
      new Set([a.account?.id, b.account?.id]),
      new Set([first.id, second.id]),
      'region matches only its accounts',
    );
    t.same(
      new Set([a.account?.proxyKey, b.account?.proxyKey]),
      new Set([p1, p2]),
      'each its own port',
    );
    for (const [x, h] of [
      [a, 'r1 tok'],
      [b, 'r2 tok'],
    ] as const) {
      await call('release', {
        id: x.account!.id,
        holder: h,
        verdict: { state: 'healthy' },
        prompted: false,
      });
    }
    const again = await claim({
      platform: 'deepseek',
      regionCode: '310100',
      holder: 'r3 tok',
      ports: [p2, p1],
      avoid: [b.account!.id],
    });
    t.equal(again.account?.id, a.account!.id, 'avoid skips the other');
    t.equal(again.account?.proxyKey, a.account!.proxyKey, 'the pinned port is kept');
    await call('release', {
      id: a.account!.id,
      holder: 'r3 tok',
      verdict: { state: 'healthy' },
      prompted: false,
    });
    const onlyB = b.account!.proxyKey!;
    const c = await claim({
      platform: 'deepseek',
      regionCode: '310100',
      holder: 'r4 tok',
      ports: [onlyB],
    });
    t.equal(c.account?.id, b.account!.id, 'an account whose port is down is not claimed');
    t.match(
      await claim({ platform: 'deepseek', regionCode: '310100', holder: 'r5 tok', ports: [onlyB] }),
      { account: null, reason: /1 busy, 1 its proxy port is down/ },
    );
    await call('release', {
      id: c.account!.id,
      holder: 'r4 tok',
      verdict: { state: 'healthy' },
      prompted: false,
    });
    t.match(
      await claim({
        platform: 'deepseek',
        regionCode: null,
        holder: 'r6 tok',
        ports: [],
        avoid: [first.id, second.id],
      }),
      {
        account: null,
        reason:
          /no usable deepseek web account \(3 accounts: 1 no proxy port, 2 used by the previous attempt\)/,
      },
    );
    t.same((await call<{ counts: object }>('usable', {})).counts, {
      'deepseek|310100': 2,
      'deepseek|110100': 1,
    });
    for (const x of [first, second, other]) await call('remove', { id: x.id });
  },
);

t.test('coverage: the regions of accounts in working order, busy ones too', async (t) => {
  const platform = 'sandbox-web';
  await add(platform, 'anywhere');
  const human = await add(platform, 'sh-human', { regionCode: '310100' });
  await call('setState', { id: human.id, state: 'needs_human', reason: 'login wall' });
  const off = await add(platform, 'bj-off', { regionCode: '110100' });
  await call('setState', { id: off.id, state: 'disabled' });
  await call('add', { platform, label: 'gz-no-login', regionCode: '440100' });
  t.same((await call<CoverageAnswer>('coverage', {})).regions[platform], [null]);
  const busy = await add(platform, 'gz-busy', { regionCode: '440100' });
  await call('hold', { id: busy.id, holder: 'an operator check' });
  t.same(
    (await call<CoverageAnswer>('coverage', {})).regions[platform]!.sort(),
    ['440100', null],
    'held by a check, it comes back',
  );
});

t.test('a hold that is never released lapses after ACCOUNT_HOLD_MS', async (t) => {
  clock.t += HOUR;
  const acc = await add('deepseek', 'crashy');
  t.ok((await claim({ platform: 'deepseek', holder: 'crashed tok' })).account);
  clock.t += 59_999;
  t.equal((await claim({ platform: 'deepseek', holder: 'later tok' })).account, null);
  clock.t += 2;
  t.equal((await claim({ platform: 'deepseek', holder: 'later tok' })).account?.id, acc.id);
  t.same(
    await call('release', {
      id: acc.id,
      holder: 'crashed tok',
      verdict: { state: 'healthy' },
      prompted: true,
    }),
    { ok: false },
    'the lapsed holder changes nothing',
  );
  await call('remove', { id: acc.id });
});

t.test('the storage state is unreadable in the database without the key', async (t) => {
  const acc = await add('kimi', 'sealed');
  const raw = await db.collection('accounts').findOne({ _id: acc.id as never });
  const text = JSON.stringify(raw);
  t.notOk(text.includes('secret-sealed'), 'no cookie value');
  t.notOk(text.includes('kimi_session'), 'no cookie name');
  t.notOk(text.includes('access_token'), 'no local-storage token');
  t.match(raw, { stateCipher: /^[A-Za-z0-9+/]+=*$/ });
  t.notOk(
    JSON.stringify(await call('list', {})).includes(raw!.stateCipher),
    'list never shows the state',
  );
  // A release with a refreshed state seals it again under a fresh IV.
  clock.t += HOUR;
  await claim({ platform: 'kimi', holder: 's tok' });
  await call('release', {
    id: acc.id,
    holder: 's tok',
    verdict: { state: 'healthy' },
    prompted: false,
    storageState: session('refreshed'),
  });
  const after = await db.collection('accounts').findOne({ _id: acc.id as never });
  t.not(after!.stateCipher, raw!.stateCipher);
  t.notOk(JSON.stringify(after).includes('refreshed'));
  t.same(
    (await call<CheckedOutAccount>('readState', { id: acc.id })).storageState,
    session('refreshed'),
  );
  await call('remove', { id: acc.id });
});

t.test('a needs_human release never replaces the stored login', async (t) => {
  const acc = await add('kimi', 'walled-release');
  const stored = async () =>
    (await call<CheckedOutAccount>('readState', { id: acc.id })).storageState;
  await call('hold', { id: acc.id, holder: 'w tok' });
  await call('release', {
    id: acc.id,
    holder: 'w tok',
    verdict: { state: 'needs_human', reason: 'login wall: x (kimi)', kind: 'login_wall' },
    prompted: false,
    storageState: session('logged-out'),
  });
  t.same(await stored(), session('secret-walled-release'), 'the walled state is dropped');
  t.match(
    (await call<AccountView[]>('list', { platform: 'kimi' })).find((a) => a.id === acc.id),
    { state: 'needs_human', humanKind: 'login_wall' },
  );
  // driver-check may hold a needs_human account: a cooling verdict keeps its login too.
  await call('hold', { id: acc.id, holder: 'op tok' });
  await call('release', {
    id: acc.id,
    holder: 'op tok',
    verdict: { state: 'cooling', untilMs: clock.t + HOUR, reason: 'rate' },
    prompted: true,
    storageState: session('after-cooling'),
  });
  t.same(await stored(), session('secret-walled-release'), 'still the last good login');
  await call('remove', { id: acc.id });
});

t.test(
  'without ACCOUNTS_KEY nothing stores or reads a state, and no account is usable',
  async (t) => {
    const config = loadConfig({ MONGO_URL: mongoUrl(), MONGO_DB: dbName, LOG_LEVEL: 'warn' });
    const keyless = new ServiceBroker(brokerOptions(config));
    keyless.createService(accountsService(config, clock, pacing));
    await keyless.start();
    t.teardown(() => keyless.stop());
    const acc = await add('kimi', 'keyed');
    const k = <T>(action: string, params: object) =>
      keyless.call<T, object>(`accounts.${action}`, params);
    const named = { message: /ACCOUNTS_KEY is not set/, code: 503 };
    t.same(await k('usable', {}), { counts: {} });
    t.same(await k('coverage', {}), { regions: {} });
    t.match(await k('claim', { platform: 'kimi', regionCode: null, holder: 'h t', ports: [] }), {
      account: null,
      reason: /ACCOUNTS_KEY is not set/,
    });
    await t.rejects(k('checkout', { id: acc.id, holder: 'h t' }), named);
    await t.rejects(k('readState', { id: acc.id }), named);
    await t.rejects(k('add', { platform: 'kimi', label: 'x', storageState: session('x') }), named);
    await t.rejects(
      k('import', { platform: 'kimi', label: 'keyed', storageState: session('x') }),
      named,
    );
    await t.rejects(k('storeState', { id: acc.id, storageState: session('x') }), named);
    t.match(
      await k('list', { platform: 'kimi' }),
      [{ label: 'keyed', hasState: true }],
      'listing needs no key',
    );
    await call('remove', { id: acc.id });
  },
);

t.test(
  'a state sealed under another key is refused and the account asks for a person',
  async (t) => {
    const acc = await add('kimi', 'rekeyed');
    const config = loadConfig({
      MONGO_URL: mongoUrl(),
      MONGO_DB: dbName,
      LOG_LEVEL: 'warn',
      ACCOUNTS_KEY: randomBytes(32).toString('hex'),
    });
    const other = new ServiceBroker(brokerOptions(config));
    other.createService(accountsService(config, clock, pacing));
    await other.start();
    t.teardown(() => other.stop());
    await t.rejects(other.call('accounts.readState', { id: acc.id }), {
      message: /cannot be decrypted/,
    });
    t.match(await byId(acc.id), { state: 'needs_human', reason: /cannot be decrypted/ });
    await call('remove', { id: acc.id });
  },
);

t.test('the REPL commands run the admin commands over the cluster', async (t) => {
  const commands = accountReplCommands(nodeConfig('client'));
  t.same(
    commands.map((c) => c.command),
    [
      'accounts',
      'driver-check',
      'account-add',
      'account-import',
      'account-list',
      'account-disable',
      'account-enable',
      'account-remove',
      'account-check',
      'account-login',
    ],
  );
  t.same(
    commands.find((c) => c.command === 'account-add')!.options.map((o) => o.option),
    ['--platform <name>', '--label <label>', '--region <code>', '--state-file <file>', '--json'],
  );
  const run = async (command: string, options: object) => {
    const printed: string[] = [];
    const { log, error } = console;
    console.log = console.error = (...parts: unknown[]) => printed.push(parts.join(' '));
    try {
      await commands.find((c) => c.command === command)!.action(client, { options });
    } finally {
      Object.assign(console, { log, error });
    }
    return printed.join('\n');
  };
  const added = JSON.parse(
    await run('account-add', { platform: 'doubao', label: 'repl-1', json: true }),
  );
  t.match(added, { platform: 'doubao', label: 'repl-1', state: 'needs_human', hasState: false });
  t.match(
    await run('accounts', {}),
    new RegExp(`^id\\s+platform.*\\n${added.id}\\s+doubao\\s+repl-1\\s+-\\s+-\\s+needs_human`, 's'),
  );
  t.equal(
    await run('account-enable', { id: added.id }),
    `account enable: invalid request: id: account ${added.id} has no login stored (run account login)`,
  );
  t.equal(await run('account-remove', { id: added.id }), `removed account ${added.id}`);
});
