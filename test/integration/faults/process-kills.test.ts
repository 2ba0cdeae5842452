/**
 * One fault per batch, in one cluster: kill -9 of the api+tasks process, the
 * scheduler, the callbacks process and a crawler node, and SIGTERM of a
 * crawler node, each in the middle of its batch and each started again at
 * once. After every fault: all sub tasks completed, every platform request
 * counted as an attempt (and none made twice after a SIGTERM), counters exact, the status view agreeing with its own
 * list, one webhook id and one successful delivery per task. After the
 * api+tasks process, every task is final within 5 s of its last sub task
 * (issue 12: 42 s). A batch is 3 tasks of 50 sub tasks (150, not 300: the
 * file then stays within about three minutes on a busy 2-core machine).
 */
import t, { type Test } from 'tap';
import {
  FRONT,
  finalCount,
  startFaultCluster,
  type FaultCluster,
} from '../../helpers/fault-cluster.js';
import { checkOutcome, type Outcome } from '../../helpers/fault-checks.js';
import { noisyLines } from '../../helpers/log-lines.js';
import { until } from '../../helpers/wait.js';

// Child processes start slowly on a busy machine; the default 120 s is too short.
t.setTimeout(420_000);

const TASKS = 3;
const PER_TASK = 50;

const LATENCY_MS = 600;
const c = await startFaultCluster(t, {
  crawlers: 2,
  crawlerCapacity: 10,
  sandboxLatencyMs: LATENCY_MS,
});

t.test('every role starts without a warning', async (t) => {
  // front (api, tasks, users), scheduler, callbacks and the crawler nodes.
  for (const [id, node] of c.nodes)
    t.same(noisyLines(node.output()), [], `${id} started without a WARN or ERROR line`);
});

/** Submits the batch, waits until a third of it is final, runs the fault, checks every task. */
async function batchThrough(
  t: Test,
  c: FaultCluster,
  name: string,
  fault: (taskIds: string[]) => Promise<void>,
): Promise<Outcome[]> {
  const tags = Array.from({ length: TASKS }, (_, i) => `${name}-${i}`);
  const ids = await Promise.all(tags.map((tag) => c.submit(tag, PER_TASK)));
  await finalCount(c, ids[0]!, PER_TASK / 3);
  await fault(ids);
  const outcomes: Outcome[] = [];
  for (const [i, id] of ids.entries())
    outcomes.push(await checkOutcome(t, c, id, tags[i]!, PER_TASK));
  return outcomes;
}

/** Final sub tasks of these tasks that their counters do not include yet, and those still open. */
async function uncounted(
  c: FaultCluster,
  taskIds: string[],
): Promise<{ lost: number; open: number }> {
  const conn = await c.db();
  // Counters first: both only grow, so a settle in between can only add to the difference.
  const tasks = await conn
    .collection('tasks')
    .find({ _id: { $in: taskIds as never[] } })
    .toArray();
  const counted = tasks.reduce((sum, t) => sum + t.completedItems + t.failedItems, 0);
  const finals = await conn
    .collection('subtasks')
    .countDocuments({ taskId: { $in: taskIds }, status: { $nin: ['pending', 'processing'] } });
  return { lost: finals - counted, open: TASKS * PER_TASK - finals };
}

/**
 * kill -9 of the api+tasks process while it is between writing sub tasks and
 * counting them, which is what left tasks `processing` in issue 12. Seen from
 * outside, then confirmed with the process frozen (SIGSTOP), so the kill is
 * known to fall in the gap; otherwise it is let go on and tried again.
 */
async function killBetweenWriteAndCount(c: FaultCluster, taskIds: string[]): Promise<number> {
  const front = c.nodes.get('front')!.child;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const seen = await uncounted(c, taskIds);
    if (seen.open === 0) break;
    if (seen.lost <= 0) continue;
    front.kill('SIGSTOP');
    const { lost } = await uncounted(c, taskIds);
    if (lost > 0) {
      await c.kill('front');
      return lost;
    }
    front.kill('SIGCONT');
  }
  throw new Error('never caught the tasks node between a write and its count');
}

t.test('kill -9 of the api+tasks process between a write and its count', async (t) => {
  let lost = 0;
  const outcomes = await batchThrough(t, c, 'front', async (taskIds) => {
    lost = await killBetweenWriteAndCount(c, taskIds);
    await c.start('front', FRONT);
  });
  t.ok(lost > 0, `the kill left ${lost} final sub task(s) uncounted`);
  for (const o of outcomes)
    t.ok(o.finishLagMs < 5_000, `final ${o.finishLagMs} ms after its last sub task (target: 5 s)`);
});

t.test('kill -9 of the scheduler, restarted at once', async (t) => {
  await batchThrough(t, c, 'scheduler', async () => {
    await c.kill('scheduler');
    await c.start('scheduler', 'scheduler');
  });
});

t.test('kill -9 of the callbacks process, restarted at once', async (t) => {
  await batchThrough(t, c, 'callbacks', async () => {
    await c.kill('callbacks');
    await c.start('callbacks', 'callbacks');
  });
});

t.test('kill -9 of a crawler node, restarted at once', async (t) => {
  // Restarted under the same NODE_ID, the node is back before its old self is missed
  // (heartbeats): its old incarnation's leases go back when the new one appears
  // (another instanceID), not when they expire (issue 30: 29 s).
  const conn = await c.db();
  let held: string[] = [];
  let finalAfterMs = 0;
  let finalAt = 0;
  let expiry = 0;
  await batchThrough(t, c, 'crawler-kill', async () => {
    await c.kill('crawler-1');
    const leases = await conn
      .collection('subtasks')
      .find(
        { status: 'processing', leaseNode: 'crawler-1' },
        { projection: { _id: 1, leaseExpiresAt: 1 } },
      )
      .toArray();
    held = leases.map((d) => String(d._id));
    // When the last of them would have expired: waiting for that is what this test rules out.
    expiry = Math.max(...leases.map((d) => d.leaseExpiresAt as number));
    await c.start('crawler-1', 'crawler');
    const back = Date.now();
    await until(
      `the ${held.length} sub tasks the killed node held to be final`,
      async () =>
        (await conn.collection('subtasks').countDocuments({
          _id: { $in: held as never[] },
          status: { $in: ['pending', 'processing'] },
        })) === 0,
      60_000,
      50,
    );
    finalAt = Date.now();
    finalAfterMs = finalAt - back;
  });
  t.ok(held.length > 0, `the killed node held ${held.length} leases`);
  t.ok(
    finalAfterMs <= LATENCY_MS + 5_000,
    `they were final ${finalAfterMs} ms after the node was back (target: latency + 5 s)`,
  );
  // Positive evidence that they went back because the node went, not by expiry: the scheduler
  // says the new incarnation's arrival handed them back, or (a restart slower than the heartbeat
  // timeout, under load) that it saw the old one disconnect, which hands them back at once.
  t.match(
    c.nodes.get('scheduler')!.output(),
    /crawler node crawler-1 restarted: \d+ leases of its old incarnation go back|Node 'crawler-1' disconnected unexpectedly/,
    `the scheduler handed the old incarnation's leases back (final ${expiry - finalAt} ms before they would have expired)`,
  );
});

t.test('SIGTERM of a crawler node, restarted at once', async (t) => {
  // The node drains: it finishes and reports what it runs, hands back what
  // waits, and nothing runs twice (before the drain, 3-4 requests per task
  // were made again).
  const outcomes = await batchThrough(t, c, 'crawler-term', async () => {
    await c.kill('crawler-2', 'SIGTERM');
    await c.start('crawler-2', 'crawler');
  });
  for (const o of outcomes) t.equal(o.extraRequests, 0, 'no platform request made twice');
});
