/**
 * A graceful stop of a crawler node costs no work: SIGTERM stops it taking
 * leases and hands back the unstarted ones; the running ones finish within
 * DRAIN_MS and are reported, then it exits. Work still running at the
 * deadline, or at a second signal, is handed back without using an attempt.
 * MAX_ATTEMPTS=1 makes any charged attempt visible: the sub task would fail.
 * This file: the drain deadline.
 */
import t from 'tap';
import {
  batchRunningOn,
  DRAIN_FILE_TIMEOUT_MS,
  drainCluster as cluster,
  drainedIn,
  SLOW_PROMPTS,
  subTasks,
} from '../../helpers/drain-cluster.js';

t.setTimeout(DRAIN_FILE_TIMEOUT_MS);

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
