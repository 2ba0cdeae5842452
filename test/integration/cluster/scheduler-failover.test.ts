/** kill -9 of the active scheduler: the standby takes the lock and the batch completes. */
import t from 'tap';
import { startCluster } from '../../helpers/cluster-processes.js';
import { until } from '../../helpers/wait.js';

t.test(
  'kill -9 the active scheduler: the standby takes over and the batch completes',
  async (t) => {
    const c = await startCluster(t, {
      crawlers: 1,
      schedulers: 2,
      crawlerCapacity: 4,
      sandboxLatencyMs: 500,
    });
    const conn = await c.db();
    const leader = await until('a leader', async () => {
      const lock = await conn.collection('locks').findOne({ _id: 'scheduler' as never });
      return lock?.owner as string | undefined;
    });
    const taskId = await c.submit({
      prompts: Array.from({ length: 24 }, (_, i) => `q${i}`),
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
    });
    await until(
      'work to start',
      async () =>
        (await conn.collection('subtasks').countDocuments({ taskId, status: 'completed' })) > 0,
    );
    const killedAt = Date.now();
    c.nodes.get(leader)!.child.kill('SIGKILL');
    const standby = leader === 'scheduler-1' ? 'scheduler-2' : 'scheduler-1';
    await until(
      'the standby to take the lock',
      async () =>
        (await conn.collection('locks').findOne({ _id: 'scheduler' as never }))?.owner === standby,
      20_000,
    );
    t.ok(Date.now() - killedAt < 15_000, `takeover within 15 s (${Date.now() - killedAt} ms)`);
    const result = await c.finished(taskId, 120_000);
    t.equal(result.status, 'completed');
    t.equal(result.completedItems, 24);
  },
);
