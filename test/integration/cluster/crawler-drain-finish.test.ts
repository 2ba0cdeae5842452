/**
 * A graceful stop of a crawler node costs no work: SIGTERM stops it taking
 * leases and hands back the unstarted ones; the running ones finish within
 * DRAIN_MS and are reported, then it exits. Work still running at the
 * deadline, or at a second signal, is handed back without using an attempt.
 * MAX_ATTEMPTS=1 makes any charged attempt visible: the sub task would fail.
 * This file: the running work finishes.
 */
import t from 'tap';
import {
  batchRunningOn,
  DRAIN_FILE_TIMEOUT_MS,
  CHAT,
  drainCluster as cluster,
  drainedIn,
  PROMPTS,
  subTasks,
} from '../../helpers/drain-cluster.js';

t.setTimeout(DRAIN_FILE_TIMEOUT_MS);

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
