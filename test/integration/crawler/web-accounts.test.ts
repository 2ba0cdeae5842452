/**
 * The crawler's web path with accounts, end to end but for the scheduler
 * (this test claims the accounts and sends the leases itself): the real
 * accounts, tasks, users and api services on NATS and the MongoDB-wire
 * server, real Chromium, the sandbox and a small consumer-site stand-in,
 * and loopback forward proxies as the accounts' pinned regional exits.
 * Each attempt checks its account out, runs through the account's own port,
 * stores its evidence (served to the task's owner only) and releases the
 * account with the site's verdict before it reports.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { Executor, type Outcome } from '../../../crawler/executor.js';
import { driverFor } from '../../../crawler/platforms/index.js';
import { settingsResolver } from '../../../crawler/settings.js';
import { ProxyPool } from '../../../crawler/proxy-pool.js';
import { proxyKey } from '../../../services/shared/proxy-config.js';
import { BrowserRunner } from '../../../crawler/browser.js';
import { KeptPages } from '../../../crawler/web/kept-pages.js';
import type { RenderServer } from '../../../crawler/render-server.js';
import type { PlatformDriver, WebDriver } from '../../../crawler/platforms/types.js';
import { driverDrift, needsHuman } from '../../../crawler/web/signals.js';
import { startSandboxServer } from '../../../sandbox/server.js';
import { EvidenceStore } from '../../../services/shared/evidence.js';
import { ScreenshotStore, screenshotPath } from '../../../services/shared/screenshots.js';
import type {
  ClaimAnswer,
  ReleaseRequest,
  StorageState,
} from '../../../services/shared/contracts/accounts.js';
import type { LeaseMessage } from '../../../services/shared/contracts/lease.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { startForwardProxy } from '../../helpers/forward-proxy.js';
import { sendHtml, startSite, storageStateFor } from '../../../replicas/common/site.js';
import { chromiumPath } from '../../../infra/processes.js';

const M = '/api/business/monitor';
const SH = '310100';
const BJ = '110100';

const svc = await startEmbedded(t, {
  SERVICES: 'api,tasks,users,accounts',
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
});
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');
const db = await svc.db();

const sandbox = await startSandboxServer({ latencyMs: 200 });
t.teardown(() => sandbox.close());
const [shExit, bjExit] = await Promise.all([
  startForwardProxy('127.0.0.2'),
  startForwardProxy('127.0.0.3'),
]);
t.teardown(() => Promise.all([shExit.stop(), bjExit.stop()]));
const SH_KEY = proxyKey(shExit.url);
const BJ_KEY = proxyKey(bjExit.url);

/**
 * A consumer-site stand-in with a login wall (`/login`) and a chat page whose
 * chat call answers 401 (an expired session) or streams two SSE frames and
 * refreshes the session cookie.
 */
const site = await startSite([
  {
    method: 'GET',
    path: '/login',
    handle: (_req, res) => sendHtml(res, '<body><form id="login">Log in to chat</form></body>'),
  },
  {
    method: 'GET',
    path: '/chat',
    handle: (_req, res) =>
      sendHtml(
        res,
        `<body><button id="send">send</button><div id="out"></div><script>
          document.getElementById('send').onclick = () => fetch('/api/chat', {
            method: 'POST', body: JSON.stringify({ prompt: decodeURIComponent(location.hash.slice(1)) }) })
            .then((r) => r.text()).then((t) => { document.getElementById('out').textContent = t; });
        </script></body>`,
      ),
  },
  {
    method: 'POST',
    path: '/api/chat',
    handle: (req, res) => {
      if ((req.headers.cookie ?? '').includes('sid=expired')) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"unauthorized"}');
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'set-cookie': 'sid=refreshed; Path=/; HttpOnly',
      });
      res.write('data: {"text":"Hello "}\n\n');
      setTimeout(() => res.end('data: {"text":"world"}\n\ndata: [DONE]\n\n'), 50);
    },
  },
]);
t.teardown(() => site.close());

/** A small web driver for the stand-in: what a site driver does, in a few lines. */
const standInWeb: WebDriver = {
  startUrl: (job) =>
    job.prompt.includes('#wall') ? `${site.url}/login` : `${site.url}/chat#${job.prompt}`,
  origins: () => [site.url],
  loginUrl: () => `${site.url}/login`,
  loginState: async () => ({ loggedIn: true }),
  async ask(page, job, ctx) {
    if (await page.locator('#login').count())
      throw needsHuman('stand-in', 'login wall: the page asks to log in');
    const next = ctx.capture.next(/\/api\/chat$/, job.signal);
    await page.locator('#send').click();
    const stream = await next;
    let text = '';
    for await (const chunk of stream.chunks) {
      for (const frame of chunk.toString('utf8').split('\n\n')) {
        if (!frame.startsWith('data: ')) continue;
        ctx.evidence.frame(frame);
        if (frame !== 'data: [DONE]') text += (JSON.parse(frame.slice(6)) as { text: string }).text;
      }
    }
    if (stream.status === 401) throw needsHuman('stand-in', 'HTTP 401 on the chat call');
    if (job.prompt.includes('#drift'))
      throw driverDrift('unrecognised stand-in stream format: a test drift');
    await page.waitForFunction(`document.getElementById('out').textContent !== ''`);
    return {
      answerContent: text,
      referenceList: [],
      citationList: [],
      reasoningProcess: null,
      recommendedQuestions: [],
      mediaContent: [],
      effectiveMode: job.mode,
      formatVersion: 'stand-in-sse-1',
    };
  },
};
const standIn: PlatformDriver = { name: 'sandbox-web', web: standInWeb };

const browser = new BrowserRunner({
  chromiumPath: chromiumPath(),
  concurrency: 4,
  maxWorkSeconds: 60,
});
const keptPages = new KeptPages({ max: 4, idleMs: 60_000 });
t.teardown(async () => {
  await keptPages.closeAll();
  await browser.stop();
});
const proxies = new ProxyPool(
  [
    {
      port: shExit.port,
      url: shExit.url,
      province: '',
      city: '',
      regionCode: [SH],
      outIp: '127.0.0.2',
    },
    {
      port: bjExit.port,
      url: bjExit.url,
      province: '',
      city: '',
      regionCode: [BJ],
      outIp: '127.0.0.3',
    },
  ],
  async () => ({ ok: true, observedIp: null, error: null }),
  { now: () => Date.now() },
);
const evidence = new EvidenceStore(db);
const screenshots = new ScreenshotStore(db);

const call = <T>(action: string, params: object) => svc.broker.call<T, object>(action, params);
const releases: ReleaseRequest[] = [];

interface Reported {
  lease: LeaseMessage;
  outcome: Outcome;
  /** The account as `accounts.list` showed it when the report was sent. */
  accountThen: AccountView | undefined;
}

interface AccountView {
  id: string;
  label: string;
  state: string;
  reason: string | null;
  holder: string | null;
  proxyKey: string | null;
  lastUsedAt: number | null;
  screenshot: string | null;
}

const accountList = async () => call<AccountView[]>('accounts.list', { platform: 'sandbox-web' });

function executor(
  drivers: (platform: string) => PlatformDriver | undefined,
  capacity = 4,
  prefetch = 0,
) {
  const reports: Reported[] = [];
  const handedBack: string[] = [];
  const ex = new Executor({
    capacity,
    prefetch,
    driverFor: drivers,
    settingsFor: settingsResolver({ url: sandbox.url, timeoutMs: 30_000 }),
    proxies,
    fetchVia: () => fetch,
    portFailed: () => undefined,
    browser,
    keptPages,
    render: {} as RenderServer,
    saveScreenshot: async (png, subTaskId) =>
      screenshotPath(await screenshots.save(png, subTaskId, Date.now())),
    accounts: {
      checkout: (request) => call('accounts.checkout', request),
      release: async (request) => {
        releases.push(request);
        await call('accounts.release', request);
      },
    },
    saveEvidence: (ndjson, subTaskId) => evidence.save(ndjson, subTaskId, Date.now()),
    renew: async (leases) => leases.map(() => true),
    report: async (lease, outcome) => {
      const accountThen = (await accountList()).find((a) => a.id === lease.account?.id);
      reports.push({ lease, outcome, accountThen });
    },
    release: async (lease) => {
      handedBack.push(lease.subTaskId);
    },
    log: { warn: () => undefined },
  });
  t.teardown(() => ex.stop());
  return { ex, reports, handedBack };
}

async function addAccount(label: string, regionCode: string, state: StorageState) {
  return call<{ id: string }>('accounts.add', {
    platform: 'sandbox-web',
    label,
    regionCode,
    storageState: state,
  });
}

async function submit(prompts: string[]) {
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts, platforms: [{ platform: 'sandbox-web', mode: 'search', screenshot: 1 }] },
    alice.token,
  );
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data as { taskId: string; subTaskList: { subTaskId: string; prompt: string }[] };
}

/** Claims an account for the sub task as the scheduler does, and builds its lease. */
async function leaseFor(
  task: { taskId: string },
  sub: { subTaskId: string; prompt: string },
  regionCode: string,
  ports: string[],
): Promise<LeaseMessage> {
  const token = randomBytes(8).toString('hex');
  const claim = await call<ClaimAnswer>('accounts.claim', {
    platform: 'sandbox-web',
    regionCode,
    holder: `${sub.subTaskId} ${token}`,
    ports,
  });
  if (!claim.account) throw new Error(`no account: ${claim.reason}`);
  return {
    subTaskId: sub.subTaskId,
    taskId: task.taskId,
    token,
    expiresAt: Date.now() + 60_000,
    leaseMs: 60_000,
    platform: 'sandbox-web',
    channel: 'web',
    mode: 'search',
    prompt: sub.prompt,
    screenshot: 1,
    regionCode,
    avoidProxy: null,
    attempt: 1,
    account: { id: claim.account.id, proxyKey: claim.account.proxyKey },
  };
}

async function until<T>(what: string, check: () => T | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

t.test('two accounts in two regions: each its own exit, evidence to the owner only', async (t) => {
  const shAccount = await addAccount(
    'sh-1',
    SH,
    storageStateFor(sandbox.url, { cookies: { sid: 'sh' } }),
  );
  const bjAccount = await addAccount(
    'bj-1',
    BJ,
    storageStateFor(sandbox.url, { cookies: { sid: 'bj' } }),
  );
  const task = await submit(['web prompt in Shanghai', 'web prompt in Beijing']);
  const [shSub, bjSub] = task.subTaskList as [
    { subTaskId: string; prompt: string },
    { subTaskId: string; prompt: string },
  ];
  const shLease = await leaseFor(task, shSub, SH, [SH_KEY]);
  const bjLease = await leaseFor(task, bjSub, BJ, [BJ_KEY]);
  t.same(shLease.account, { id: shAccount.id, proxyKey: SH_KEY }, 'pinned to the Shanghai port');
  t.same(bjLease.account, { id: bjAccount.id, proxyKey: BJ_KEY });

  const { ex, reports } = executor(driverFor);
  t.match(
    ex.accept({
      ...shLease,
      subTaskId: 'elsewhere',
      account: { id: shAccount.id, proxyKey: '127.0.0.9:1' },
    }),
    { accepted: false, reason: /proxy port 127\.0\.0\.9:1 is not on this node/ },
  );
  t.notOk(
    ex.accept({
      ...shLease,
      subTaskId: 'elsewhere',
      account: { id: shAccount.id, proxyKey: '127.0.0.9:1' },
    }).cannotRun,
    'a pinned port elsewhere is no reason to give up the sub task',
  );
  t.same([ex.accept(shLease), ex.accept(bjLease)], [{ accepted: true }, { accepted: true }]);
  await until('two reports', () => (reports.length === 2 ? true : undefined));

  for (const [lease, exit, account] of [
    [shLease, '127.0.0.2', shAccount],
    [bjLease, '127.0.0.3', bjAccount],
  ] as const) {
    const r = reports.find((x) => x.lease.subTaskId === lease.subTaskId)!;
    t.equal(r.outcome.failure, undefined, `${exit}: answered`);
    t.match(r.outcome, { proxyIp: exit, accountId: account.id });
    t.same(r.outcome.web, { regionCode: lease.regionCode }, 'collector health: its region');
    t.match(r.outcome.result, {
      effectiveMode: 'search',
      formatVersion: 'sandbox-dom-1',
      evidenceId: /^[0-9a-f]{32}$/,
      pageScreenshot: /^\/api\/business\/monitor\/screenshot\/[0-9a-f]{32}\.png$/,
    });
    t.ok(r.outcome.result!.answerContent, 'an answer');
    const seen = sandbox.stats.requests.filter((q) => q.prompt === lease.prompt);
    t.ok(seen.length > 0, 'the sandbox saw the prompt');
    t.same([...new Set(seen.map((q) => q.remoteAddress))], [exit], 'only through its pinned exit');
    t.match(r.accountThen, { holder: null, state: 'healthy' }, 'released before the report');
    t.ok(r.accountThen!.lastUsedAt, 'the prompt counted');
    const release = releases.find((x) => x.id === account.id)!;
    t.match(release, {
      holder: `${lease.subTaskId} ${lease.token}`,
      verdict: { state: 'healthy' },
      prompted: true,
    });
    t.ok(
      release.storageState?.cookies.some((c) => c.name === 'sid'),
      'the page storage state went back',
    );
  }

  const raw = `${M}/task/result/${task.taskId}/${shSub.subTaskId}/raw`;
  const own = await svc.client.get(raw, alice.token);
  t.equal(own.status, 200);
  t.match(own.headers.get('content-type'), /application\/x-ndjson/);
  const lines = own.text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; text?: string });
  t.match(lines[0], { kind: 'note', text: `open ${sandbox.url}/` });
  t.match(lines.at(-1), { kind: 'note', text: 'answer: format sandbox-dom-1, mode search' });
  t.equal((await svc.client.get(raw, bob.token)).status, 404, 'not to anyone else');
  const view = await svc.client.get(
    `${M}/task/result/${task.taskId}/${shSub.subTaskId}`,
    alice.token,
  );
  t.equal(view.body.data.rawEvidence, svc.client.baseUrl + raw);

  // The account's next sub task runs on its page kept from this one, still through its own exit.
  const next = await submit(['next web prompt in Shanghai']);
  const nextSub = next.subTaskList[0]!;
  const nextLease = await leaseFor(next, nextSub, SH, [SH_KEY]);
  t.equal(nextLease.account?.id, shAccount.id);
  t.same(ex.accept(nextLease), { accepted: true });
  await until('the next report', () => (reports.length === 3 ? true : undefined));
  t.equal(reports[2]!.outcome.failure, undefined, 'answered');
  const nextRaw = await svc.client.get(
    `${M}/task/result/${next.taskId}/${nextSub.subTaskId}/raw`,
    alice.token,
  );
  t.match(JSON.parse(nextRaw.text.split('\n')[0]!), {
    kind: 'note',
    text: `open ${sandbox.url}/ (the account's page, kept from its last sub task)`,
  });
  const nextSeen = sandbox.stats.requests.filter((q) => q.prompt === nextSub.prompt);
  t.same([...new Set(nextSeen.map((q) => q.remoteAddress))], ['127.0.0.2'], 'its pinned exit');
});

t.test(
  'a site that wants a person: the account needs one, with a screenshot of what it showed',
  async (t) => {
    const stateOf = (sid: string) => storageStateFor(site.url, { cookies: { sid } });
    const walled = await addAccount('walled', SH, stateOf('fine'));
    const expired = await addAccount('expired', SH, stateOf('expired'));
    const fine = await addAccount('fine', SH, stateOf('fine'));
    const drifted = await addAccount('drifted', SH, stateOf('fine'));
    const task = await submit([
      'ask #wall',
      'ask with an expired session',
      'ask as usual',
      'ask and drift #drift',
    ]);
    type Sub = { subTaskId: string; prompt: string };
    const [wallSub, expiredSub, fineSub, driftSub] = task.subTaskList as [Sub, Sub, Sub, Sub];
    const { ex, reports } = executor(() => standIn);
    // One at a time, so that each sub task gets the account the test means for it.
    const run = async (sub: { subTaskId: string; prompt: string }, accountId: string) => {
      for (;;) {
        const lease = await leaseFor(task, sub, SH, [SH_KEY]);
        if (lease.account!.id === accountId) {
          t.same(ex.accept(lease), { accepted: true });
          return until(`report of ${sub.prompt}`, () =>
            reports.find((r) => r.lease.subTaskId === sub.subTaskId),
          );
        }
        await call('accounts.release', {
          id: lease.account!.id,
          holder: `${lease.subTaskId} ${lease.token}`,
          verdict: { state: 'healthy' },
          prompted: false,
        });
        await call('accounts.setState', { id: lease.account!.id, state: 'disabled' });
      }
    };
    for (const other of (await accountList()).filter(
      (a) => ![walled.id, expired.id, fine.id, drifted.id].includes(a.id),
    ))
      await call('accounts.setState', { id: other.id, state: 'disabled' });
    await call('accounts.setState', { id: expired.id, state: 'disabled' });
    await call('accounts.setState', { id: fine.id, state: 'disabled' });
    await call('accounts.setState', { id: drifted.id, state: 'disabled' });

    const loginOf = async (id: string) =>
      (await call<{ storageState: StorageState }>('accounts.readState', { id })).storageState;
    const walledLogin = await loginOf(walled.id);
    const expiredLogin = await loginOf(expired.id);
    const wall = await run(wallSub, walled.id);
    t.match(wall.outcome.failure, {
      status: 'failed',
      retryable: true,
      message: 'login wall: the page asks to log in (stand-in)',
    });
    t.equal(wall.outcome.result, undefined, 'no answer');
    t.same(
      wall.outcome.web,
      { regionCode: SH, accountVerdict: 'needs_human' },
      'collector health hears the verdict',
    );
    t.match(wall.accountThen, { state: 'needs_human', reason: /login wall/, holder: null });
    const shot = await svc.client.get(new URL(wall.accountThen!.screenshot!).pathname);
    t.equal(shot.status, 200);
    t.equal(shot.headers.get('content-type'), 'image/png');
    t.match(
      releases.find((x) => x.id === walled.id),
      {
        verdict: { state: 'needs_human', screenshotPng: /^iVBORw0KGgo/ },
        prompted: false,
      },
    );
    t.notOk(releases.find((x) => x.id === walled.id)!.storageState, 'a walled state is not kept');
    t.same(await loginOf(walled.id), walledLogin, 'the stored login exactly as it was');

    await call('accounts.setState', { id: expired.id, state: 'healthy' });
    const lapsed = await run(expiredSub, expired.id);
    t.match(lapsed.outcome.failure, { message: 'HTTP 401 on the chat call (stand-in)' });
    t.match(lapsed.accountThen, { state: 'needs_human' });
    t.match(
      releases.find((x) => x.id === expired.id),
      { prompted: true },
      'it had sent the prompt',
    );
    t.notOk(releases.find((x) => x.id === expired.id)!.storageState, 'nor a refused session');
    t.same(await loginOf(expired.id), expiredLogin, 'its stored login as it was');
    const lapsedRaw = await svc.client.get(
      `${M}/task/result/${task.taskId}/${expiredSub.subTaskId}/raw`,
      alice.token,
    );
    t.equal(lapsedRaw.status, 200, 'a failed attempt keeps its evidence');
    const lapsedLines = lapsedRaw.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    t.match(lapsedLines, [
      { kind: 'note' },
      { kind: 'request', method: 'POST', url: `${site.url}/api/chat` },
      { kind: 'response', status: 401 },
      { kind: 'note', text: 'failed: HTTP 401 on the chat call (stand-in)' },
    ]);

    await call('accounts.setState', { id: fine.id, state: 'healthy' });
    const answered = await run(fineSub, fine.id);
    t.match(answered.outcome.result, {
      answerContent: 'Hello world',
      formatVersion: 'stand-in-sse-1',
    });
    t.match(answered.accountThen, { state: 'healthy' });
    const kept = releases.find((x) => x.id === fine.id)!.storageState!;
    t.same(
      kept.cookies.filter((c) => c.name === 'sid').map((c) => c.value),
      ['refreshed'],
      'the session the site refreshed goes back to the account',
    );
    const fineRaw = await svc.client.get(
      `${M}/task/result/${task.taskId}/${fineSub.subTaskId}/raw`,
      alice.token,
    );
    t.match(
      fineRaw.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
      [
        { kind: 'note' },
        { kind: 'request', method: 'POST', body: JSON.stringify({ prompt: 'ask as usual' }) },
        { kind: 'response', status: 200, mimeType: 'text/event-stream' },
        { kind: 'frame', data: 'data: {"text":"Hello "}' },
        { kind: 'frame', data: 'data: {"text":"world"}' },
        { kind: 'frame', data: 'data: [DONE]' },
        { kind: 'note', text: 'answer: format stand-in-sse-1, mode search' },
      ],
    );

    // A run the site answered proved the session alive, even when the parser could not read it.
    await call('accounts.setState', { id: fine.id, state: 'disabled' });
    await call('accounts.setState', { id: drifted.id, state: 'healthy' });
    const drift = await run(driftSub, drifted.id);
    t.match(drift.outcome.failure, { message: /^unrecognised stand-in stream format/ });
    t.match(drift.accountThen, { state: 'healthy' });
    t.same(
      releases
        .find((x) => x.id === drifted.id)!
        .storageState!.cookies.filter((c) => c.name === 'sid')
        .map((c) => c.value),
      ['refreshed'],
      'the refreshed session goes back after a drift the site answered',
    );
  },
);

t.test(
  'a node that stops gives back the leases and their accounts, before it is gone',
  async (t) => {
    // Fresh accounts: the others wait out their pacing gap.
    for (const a of await accountList())
      await call('accounts.setState', { id: a.id, state: 'disabled' });
    await addAccount('drain-sh', SH, storageStateFor(sandbox.url, { cookies: { sid: 'sh' } }));
    await addAccount('drain-bj', BJ, storageStateFor(sandbox.url, { cookies: { sid: 'bj' } }));
    const task = await submit(['slow one #latency:20000', 'waiting one']);
    const [running, waiting] = task.subTaskList as [
      { subTaskId: string; prompt: string },
      { subTaskId: string; prompt: string },
    ];
    const first = await leaseFor(task, running, SH, [SH_KEY]);
    const second = await leaseFor(task, waiting, BJ, [BJ_KEY]);
    const { ex, reports, handedBack } = executor(driverFor, 1, 1);
    t.same([ex.accept(first), ex.accept(second)], [{ accepted: true }, { accepted: true }]);
    t.equal(ex.queued, 1);
    await until('the slow prompt at the sandbox', () =>
      sandbox.stats.requests.some((q) => q.prompt === first.prompt) ? true : undefined,
    );
    await ex.stop();
    t.same(handedBack.sort(), [running.subTaskId, waiting.subTaskId].sort(), 'both go back');
    t.equal(reports.length, 0);
    const accounts = await accountList();
    for (const lease of [first, second])
      t.match(
        accounts.find((a) => a.id === lease.account!.id),
        { holder: null, state: 'healthy' },
        'its account is free again when stop() returns',
      );
    t.match(
      releases.findLast((x) => x.id === second.account!.id),
      {
        holder: `${second.subTaskId} ${second.token}`,
        prompted: false,
      },
      'the waiting one never used its account',
    );
  },
);
