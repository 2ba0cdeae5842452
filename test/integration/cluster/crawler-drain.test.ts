/**
 * A graceful stop of a crawler node costs no work: SIGTERM stops it taking
 * leases and hands back the unstarted ones; the running ones finish within
 * DRAIN_MS and are reported, then it exits. Work still running at the
 * deadline, or at a second signal, is handed back without using an attempt.
 * MAX_ATTEMPTS=1 makes any charged attempt visible: the sub task would fail.
 */
import t from 'tap';
import { startCluster, type Cluster } from '../../helpers/cluster-processes.js';
import type { TapLike } from '../../helpers/cluster.js';
import type { Running } from '../../helpers/processes.js';
import { until } from '../../helpers/wait.js';

// Three clusters of five processes each, one after another.
t.setTimeout(360_000);

/** Two rounds of the two nodes' 4 slots; the 12-second answers of the later tests use one. */
const PROMPTS = 16;
const SLOW_PROMPTS = 8;
const CHAT = '/v1/chat/completions';

/** Submits the batch and waits until crawler-1 runs leases at the platform. */
async function batchRunningOn(c: Cluster, prompts = PROMPTS) {
  const taskId = await c.submit({
    prompts: Array.from({ length: prompts }, (_, i) => `question ${i}`),
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
  });
  const conn = await c.db();
  const held = await until('crawler-1 to run leases', async () => {
    const asked = new Set(c.sandbox.stats.byPath(CHAT).map((r) => r.prompt));
    const docs = await conn
      .collection('subtasks')
      .find({ taskId, status: 'processing', leaseNode: 'crawler-1' })
      .toArray();
    const running = docs.filter((d) => asked.has(d.prompt as string));
    return running.length >= 2 ? docs : undefined;
  });
  return { taskId, conn, held: held.map((d) => String(d._id)) };
}

/** The exit code, without sending another signal. */
function exited(node: Running): Promise<number | null> {
  if (node.child.exitCode !== null) return Promise.resolve(node.child.exitCode);
  return new Promise((resolve) => node.child.once('exit', (code) => resolve(code)));
}

/** How long the node's drain took, from its own `DRAINED node=… in … ms` line. */
async function drainedIn(node: Running): Promise<number> {
  const [, ms] = await node.waitFor(/DRAINED node=crawler-1 in (\d+) ms/, 1_000);
  return Number(ms);
}

async function subTasks(c: Cluster, taskId: string) {
  return (await c.db()).collection('subtasks').find({ taskId }).toArray();
}

const cluster = (t: TapLike, crawlerEnv: Record<string, string>, latencyMs: number) =>
  startCluster(t, {
    crawlers: 2,
    crawlerCapacity: 4,
    sandboxLatencyMs: latencyMs,
    env: { MAX_ATTEMPTS: '1', LEASE_MS: '20000' },
    crawlerEnv: (i) => (i === 1 ? crawlerEnv : {}),
  });

t.test('SIGTERM mid-batch: running work finishes and is reported, nothing is redone', async (t) => {
  const c = await cluster(t, {}, 4_000);
  const { taskId, held } = await batchRunningOn(c);
  const node = c.nodes.get('crawler-1')!;
  const signalled = Date.now();
  const code = await node.stop('SIGTERM');
  const exitedAfter = Date.now() - signalled;
  t.equal(code, 0, 'the node exits cleanly');
  const drained = await drainedIn(node);
  t.ok(drained < 30_000, `it drained once its work was done (${drained} ms)`);

  const result = await c.finished(taskId, 120_000);
  t.equal(result.status, 'completed');
  t.equal(result.completedItems, PROMPTS);
  const docs = await subTasks(c, taskId);
  t.strictSame(
    docs.filter((d) => d.status !== 'completed' || d.attempts !== 1).map((d) => d.errorMessage),
    [],
    'every sub task completed on its first attempt',
  );
  t.equal(c.sandbox.stats.byPath(CHAT).length, PROMPTS, 'one platform request per sub task');
  const byDrainingNode = docs.filter((d) => d.lastNode === 'crawler-1' && d.status === 'completed');
  t.ok(
    byDrainingNode.length >= 2,
    `crawler-1 finished its running work (${byDrainingNode.length})`,
  );
  t.ok(
    byDrainingNode.every((d) => held.includes(String(d._id))),
    'crawler-1 took no new lease after the signal',
  );
  // Its slots free only when its answers end, long after it said it was draining.
  t.notMatch(
    c.nodes.get('scheduler-1')!.output(),
    /crawler-1 did not take the work/,
    'the scheduler placed nothing on the draining node',
  );
  t.ok(
    byDrainingNode.every((d) => (d.time as number) <= signalled + exitedAfter),
    'its results were recorded before it exited',
  );
});

t.test(
  'a drain deadline shorter than the work hands the running leases back uncharged',
  async (t) => {
    const c = await cluster(t, { DRAIN_MS: '1000' }, 12_000);
    const { taskId } = await batchRunningOn(c, SLOW_PROMPTS);
    const node = c.nodes.get('crawler-1')!;
    t.equal(await node.stop('SIGTERM'), 0, 'the node exits cleanly');
    const drained = await drainedIn(node);
    t.ok(
      drained >= 900 && drained < 8_000,
      `it handed back at its deadline, long before the answers (${drained} ms)`,
    );

    const result = await c.finished(taskId, 120_000);
    t.equal(result.status, 'completed');
    const docs = await subTasks(c, taskId);
    t.strictSame(
      docs.filter((d) => d.status !== 'completed' || d.attempts !== 1).map((d) => d.errorMessage),
      [],
      'every sub task completed, none charged for the hand-back',
    );
    t.ok(
      docs.every((d) => d.lastNode === 'crawler-2'),
      'the work crawler-1 handed back was done by crawler-2',
    );
  },
);

t.test('a second signal stops at once, still without charging attempts', async (t) => {
  const c = await cluster(t, { DRAIN_MS: '60000' }, 12_000);
  const { taskId } = await batchRunningOn(c, SLOW_PROMPTS);
  const node = c.nodes.get('crawler-1')!;
  node.child.kill('SIGTERM');
  await node.waitFor(/DRAINING node=crawler-1/, 10_000);
  node.child.kill('SIGINT');
  t.equal(await exited(node), 0, 'the node exits cleanly');
  const drained = await drainedIn(node);
  t.ok(drained < 8_000, `it stopped at once, long before the answers (${drained} ms)`);

  const result = await c.finished(taskId, 120_000);
  t.equal(result.status, 'completed');
  const docs = await subTasks(c, taskId);
  t.strictSame(
    docs.filter((d) => d.status !== 'completed' || d.attempts !== 1).map((d) => d.errorMessage),
    [],
    'every sub task completed, none charged for the stop',
  );
  t.ok(
    docs.every((d) => d.lastNode === 'crawler-2'),
    'the work crawler-1 handed back was done by crawler-2',
  );
});
