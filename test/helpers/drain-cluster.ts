/**
 * For the crawler drain tests (test/integration/cluster/crawler-drain-*.test.ts):
 * a cluster of two crawler nodes whose first node gets its own settings, a
 * batch running on that node, and how the node ended.
 */
import { startCluster, type Cluster } from './cluster-processes.js';
import type { TapLike } from './cluster.js';
import type { Running } from '../../infra/processes.js';
import { until } from './wait.js';

/**
 * Each drain test file's time limit: four nodes start as child processes, drain
 * and finish a batch, up to 126 s seen in the suite on a busy 2-core machine
 * (the package's default is 240 s).
 */
export const DRAIN_FILE_TIMEOUT_MS = 300_000;

/** Two rounds of the two nodes' 4 slots; the 12-second answers of the later tests use one. */
export const PROMPTS = 16;
export const SLOW_PROMPTS = 8;
export const CHAT = '/v1/chat/completions';

/** Submits the batch and waits until crawler-1 runs leases at the platform. */
export async function batchRunningOn(c: Cluster, prompts = PROMPTS) {
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

/** How long the node's drain took, from its own `DRAINED node=… in … ms` line. */
export async function drainedIn(node: Running): Promise<number> {
  const [, ms] = await node.waitFor(/DRAINED node=crawler-1 in (\d+) ms/, 1_000);
  return Number(ms);
}

export async function subTasks(c: Cluster, taskId: string) {
  return (await c.db()).collection('subtasks').find({ taskId }).toArray();
}

export const drainCluster = (t: TapLike, crawlerEnv: Record<string, string>, latencyMs: number) =>
  startCluster(t, {
    crawlers: 2,
    crawlerCapacity: 4,
    sandboxLatencyMs: latencyMs,
    env: { MAX_ATTEMPTS: '1', LEASE_MS: '20000' },
    crawlerEnv: (i) => (i === 1 ? crawlerEnv : {}),
  });
