/**
 * NATS and the MongoDB-wire server restarted in the middle of a batch, on the
 * same port and with the same data (infra/nats.sh and infra/mongo.sh
 * `restart`), under a cluster of its own. After each: all sub tasks
 * completed, every platform request counted as an attempt, counters exact,
 * one webhook id and one successful delivery per task. A batch is 2 tasks of
 * 50 sub tasks (100, not 300, to stay within a couple of minutes).
 */
import t, { type Test } from 'tap';
import {
  finalCount,
  startFaultCluster,
  startOwnServers,
  type FaultCluster,
} from '../../helpers/fault-cluster.js';
import { checkOutcome } from '../../helpers/fault-checks.js';

// Child processes start slowly on a busy machine; the default 120 s is too short.
t.setTimeout(300_000);

const TASKS = 2;
const PER_TASK = 50;

const servers = await startOwnServers(t);
const c = await startFaultCluster(t, {
  crawlers: 2,
  crawlerCapacity: 10,
  sandboxLatencyMs: 600,
  servers,
});

async function batchThrough(t: Test, c: FaultCluster, name: string, fault: () => Promise<void>) {
  const tags = Array.from({ length: TASKS }, (_, i) => `${name}-${i}`);
  const ids = await Promise.all(tags.map((tag) => c.submit(tag, PER_TASK)));
  await finalCount(c, ids[0]!, PER_TASK / 3);
  await fault();
  for (const [i, id] of ids.entries()) await checkOutcome(t, c, id, tags[i]!, PER_TASK);
}

t.test('NATS restarted on the same port', async (t) => {
  await batchThrough(t, c, 'nats', () => servers.restartNats());
});

t.test('the MongoDB-wire server restarted on the same port and data', async (t) => {
  await batchThrough(t, c, 'mongo', () => servers.restartMongo());
});
