/**
 * The executor against the real sandbox stand-in (API channel): it runs at
 * most `capacity` leases at once, holds `prefetch` more and starts them as
 * slots free, and hands back unstarted leases when it stops.
 */
import t from 'tap';
import { Executor, type Outcome } from '../../../crawler/executor.js';
import { driverFor } from '../../../crawler/platforms/index.js';
import { startSandboxServer } from '../../../sandbox/server.js';
import { settingsResolver } from '../../../crawler/settings.js';
import { ProxyPool } from '../../../crawler/proxy-pool.js';
import type { BrowserRunner } from '../../../crawler/browser.js';
import type { RenderServer } from '../../../crawler/render-server.js';
import type { LeaseMessage } from '../../../services/scheduler/dispatcher.js';

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

function executor(capacity: number, prefetch: number) {
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
    browser: {} as BrowserRunner,
    render: {} as RenderServer,
    saveScreenshot: () => Promise.reject(new Error('no screenshot was asked for')),
    renew: async () => true,
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
  const requests = sandbox.stats.requests.slice(before);
  t.equal(requests.length, 3, 'three platform requests');
  // The waiting lease started only when a slot freed: after the first answer.
  const third = requests[2]!.at;
  t.ok(third >= requests[0]!.at + LATENCY_MS - 50, 'the third request waited for a free slot');
  t.equal(ex.running + ex.queued, 0);
});

t.test('stopping hands back waiting leases unstarted and fails running ones', async (t) => {
  const { ex, reports, released } = executor(1, 2);
  for (const n of [5, 6, 7]) ex.accept(lease(n));
  t.equal(ex.queued, 2);
  await ex.stop();
  t.same(released.sort(), ['s6', 's7'], 'the waiting leases go back');
  t.equal(reports.length, 1);
  t.match(reports[0], {
    id: 's5',
    outcome: { failure: { status: 'failed', retryable: true, message: 'crawler node stopping' } },
  });
  t.equal(ex.running + ex.queued, 0);
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
