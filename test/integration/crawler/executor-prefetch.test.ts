/**
 * The executor against the real sandbox stand-in (API channel): it runs at
 * most `capacity` leases at once, holds `prefetch` more and starts them as
 * slots free, renews its leases in one call per interval, and drains or stops
 * without using up attempts.
 */
import t from 'tap';
import { Executor, type Outcome } from '../../../crawler/executor.js';
import { driverFor } from '../../../crawler/platforms/index.js';
import { startSandboxServer } from '../../../sandbox/server.js';
import { settingsResolver } from '../../../crawler/settings.js';
import { ProxyPool } from '../../../crawler/proxy-pool.js';
import { BrowserRunner } from '../../../crawler/browser.js';
import type { RenderServer } from '../../../crawler/render-server.js';
import { KeptPages } from '../../../crawler/web/kept-pages.js';
import type { LeaseMessage } from '../../../services/shared/contracts/lease.js';
import { chromiumPath } from '../../../infra/processes.js';

const LATENCY_MS = 300;
const sandbox = await startSandboxServer({ latencyMs: LATENCY_MS });
t.teardown(() => sandbox.close());

function lease(n: number): LeaseMessage {
  return {
    subTaskId: `s${n}`,
    taskId: 't',
    token: `token-${n}`,
    expiresAt: Date.now() + 30_000,
    leaseMs: 30_000,
    platform: 'sandbox',
    channel: 'api',
    mode: 'standard',
    prompt: `question ${n}`,
    screenshot: 0,
    regionCode: null,
    avoidProxy: null,
    attempt: 1,
  };
}

function executor(
  capacity: number,
  prefetch: number,
  renew: (leases: LeaseMessage[]) => Promise<boolean[]> = async (ls) => ls.map(() => true),
  browser = {} as BrowserRunner,
) {
  const reports: { id: string; outcome: Outcome; at: number }[] = [];
  const released: string[] = [];
  const ex = new Executor({
    capacity,
    prefetch,
    driverFor,
    settingsFor: settingsResolver({ url: sandbox.url, timeoutMs: 10_000 }),
    // No proxy ports: the work goes direct.
    proxies: new ProxyPool([], async () => ({ ok: true, observedIp: null, error: null }), {
      now: () => Date.now(),
    }),
    fetchVia: () => fetch,
    portFailed: () => undefined,
    // API-channel leases without a screenshot never open the browser.
    browser,
    keptPages: new KeptPages({ max: capacity, idleMs: 60_000 }),
    render: {} as RenderServer,
    saveScreenshot: () => Promise.reject(new Error('no screenshot was asked for')),
    // API-channel leases use no account and capture no evidence.
    accounts: {
      checkout: () => Promise.reject(new Error('no account was claimed')),
      release: () => Promise.reject(new Error('no account was claimed')),
    },
    saveEvidence: () => Promise.reject(new Error('no evidence was captured')),
    renew,
    report: async (l, outcome) => {
      reports.push({ id: l.subTaskId, outcome, at: Date.now() });
    },
    release: async (l) => {
      released.push(l.subTaskId);
    },
    log: { warn: () => undefined },
  });
  return { ex, reports, released };
}

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

t.test('runs up to capacity, holds prefetch more, refuses beyond', async (t) => {
  const { ex, reports } = executor(2, 1);
  const before = sandbox.stats.requests.length;
  t.same(
    [1, 2, 3].map((n) => ex.accept(lease(n)).accepted),
    [true, true, true],
  );
  t.equal(ex.running, 2);
  t.equal(ex.queued, 1);
  t.match(ex.accept(lease(4)), { accepted: false, reason: /at capacity \(2 running, 1 waiting\)/ });
  t.same(ex.accept(lease(1)), { accepted: true }, 'a lease already held is acknowledged again');

  await until(() => reports.length === 3);
  t.same(reports.map((r) => r.id).sort(), ['s1', 's2', 's3']);
  t.ok(reports.every((r) => r.outcome.result?.answerContent));
  t.ok(
    reports.every((r) => r.outcome.result?.effectiveMode === 'standard'),
    'an API answer reports the mode it ran',
  );
  const requests = sandbox.stats.requests.slice(before);
  t.equal(requests.length, 3, 'three platform requests');
  // The waiting lease started only when a slot freed: after the first answer.
  const third = requests[2]!.at;
  t.ok(third >= requests[0]!.at + LATENCY_MS - 50, 'the third request waited for a free slot');
  t.equal(ex.running + ex.queued, 0);
});

t.test('stopping hands back every lease, running or waiting, and reports none', async (t) => {
  const { ex, reports, released } = executor(1, 2);
  for (const n of [5, 6, 7]) ex.accept(lease(n));
  t.equal(ex.queued, 2);
  await ex.stop();
  t.same(released.sort(), ['s5', 's6', 's7'], 'all go back, uncharged');
  t.equal(reports.length, 0, 'nothing is reported as failed');
  t.equal(ex.running + ex.queued, 0);
});

t.test('a drain lets running work finish and report, and hands back the rest', async (t) => {
  const { ex, reports, released } = executor(2, 2);
  for (const n of [11, 12, 13, 14]) ex.accept(lease(n));
  const started = Date.now();
  const drained = ex.drain(60_000, new AbortController().signal);
  t.ok(ex.draining);
  t.same(released.sort(), ['s13', 's14'], 'the waiting leases go back at once');
  t.match(ex.accept(lease(15)), { accepted: false, reason: /draining/ }, 'no new lease');
  await drained;
  t.ok(Date.now() - started >= LATENCY_MS - 50, 'the drain waited for the running answers');
  t.same(reports.map((r) => r.id).sort(), ['s11', 's12'], 'the running ones reported');
  t.ok(
    reports.every((r) => r.outcome.result?.answerContent),
    'with their answers',
  );
  t.same(released.sort(), ['s13', 's14'], 'nothing else went back');
});

t.test('at the drain deadline running API work is handed back, not reported', async (t) => {
  const { ex, reports, released } = executor(2, 0);
  const slow = (n: number) => ({ ...lease(n), prompt: `question ${n} #latency:5000` });
  for (const n of [16, 17]) ex.accept(slow(n));
  const started = Date.now();
  await ex.drain(200, new AbortController().signal);
  const took = Date.now() - started;
  t.ok(took >= 150 && took < 3_000, `handed back at the deadline (${took} ms)`);
  t.same(released.sort(), ['s16', 's17']);
  t.equal(reports.length, 0);
});

t.test('cutting a drain short hands back the running work at once', async (t) => {
  const { ex, reports, released } = executor(2, 0);
  const slow = (n: number) => ({ ...lease(n), prompt: `question ${n} #latency:5000` });
  for (const n of [18, 19]) ex.accept(slow(n));
  const now = new AbortController();
  const started = Date.now();
  const drained = ex.drain(60_000, now.signal);
  setTimeout(() => now.abort(), 100);
  await drained;
  const took = Date.now() - started;
  t.ok(took < 3_000, `stopped at the second signal (${took} ms)`);
  t.same(released.sort(), ['s18', 's19']);
  t.equal(reports.length, 0);
});

t.test('leases are renewed together, one call per interval; a lost one stops', async (t) => {
  const calls: string[][] = [];
  const { ex, reports, released } = executor(3, 0, async (ls) => {
    calls.push(ls.map((l) => l.subTaskId).sort());
    return ls.map((l) => l.subTaskId !== 's21');
  });
  const short = (n: number) => ({
    ...lease(n),
    leaseMs: 400,
    prompt: `question ${n} #latency:700`,
  });
  for (const n of [20, 21, 22]) ex.accept(short(n));
  await until(() => reports.length === 2);
  t.same(calls[0], ['s20', 's21', 's22'], 'the first renewal carries every lease');
  t.ok(calls.length >= 2 && calls.length <= 4, `one call per 200 ms tick (${calls.length})`);
  t.ok(
    calls.slice(1).every((c) => !c.includes('s21')),
    'the lost lease is not renewed again',
  );
  t.same(reports.map((r) => r.id).sort(), ['s20', 's22'], 'the lost lease reports nothing');
  t.same(released, []);
});

t.test('leases of one dispatch pass share a token: each is held and run', async (t) => {
  const { ex, reports } = executor(2, 1);
  const batch = [8, 9, 10].map((n) => ({ ...lease(n), token: 'pass-token' }));
  t.same(
    batch.map((l) => ex.accept(l).accepted),
    [true, true, true],
  );
  t.equal(ex.running + ex.queued, 3, 'three leases held, not one');
  t.same(ex.accept(batch[1]!), { accepted: true }, 'the same lease again is only acknowledged');
  t.equal(ex.running + ex.queued, 3);
  await until(() => reports.length === 3);
  t.same(reports.map((r) => r.id).sort(), ['s10', 's8', 's9']);
});

t.test('at the drain deadline web work finishes its answer; API work goes back', async (t) => {
  const browser = new BrowserRunner({
    chromiumPath: chromiumPath(),
    concurrency: 1,
    maxWorkSeconds: 60,
  });
  t.teardown(() => browser.stop());
  const { ex, reports, released } = executor(2, 0, undefined, browser);
  const slow = (n: number, channel: 'api' | 'web') => ({
    ...lease(n),
    channel,
    prompt: `question ${n} #latency:2500`,
  });
  ex.accept(slow(23, 'web'));
  ex.accept(slow(24, 'api'));
  await until(() => sandbox.stats.requests.some((r) => r.prompt?.includes('question 24')));
  const started = Date.now();
  await ex.drain(300, new AbortController().signal);
  t.ok(Date.now() - started >= 1_000, 'the drain waited past its deadline for the web answer');
  t.same(released, ['s24'], 'the API lease went back at the deadline');
  t.same(
    reports.map((r) => r.id),
    ['s23'],
    'the web lease reported its answer',
  );
  t.ok(reports[0]?.outcome.result?.answerContent, 'an answer, not a failure');
});
