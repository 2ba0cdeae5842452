/** kill -9 of a crawler node that holds leases: nothing lost, nothing recorded twice. */
import t from 'tap';
import { startCluster } from '../../helpers/cluster-processes.js';
import { until } from '../../helpers/wait.js';

t.test('kill -9 a crawler node holding leases: its work is redone elsewhere, once', async (t) => {
  const c = await startCluster(t, {
    crawlers: 2,
    crawlerCapacity: 4,
    sandboxLatencyMs: 3_000,
    env: { LEASE_MS: '20000' },
  });
  const taskId = await c.submit({
    prompts: Array.from({ length: 12 }, (_, i) => `question ${i}`),
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
  });
  const conn = await c.db();
  // Both nodes are busy once eight requests reached the platform (3 s answers, 4 slots each).
  const held = await until('crawler-1 to be working on leases', async () => {
    const working = c.sandbox.stats.byPath('/v1/chat/completions').length >= 8;
    const n = await conn
      .collection('subtasks')
      .countDocuments({ taskId, status: 'processing', leaseNode: 'crawler-1' });
    return working && n > 0 ? n : undefined;
  });
  c.nodes.get('crawler-1')!.child.kill('SIGKILL');
  const result = await c.finished(taskId, 120_000);
  t.equal(result.status, 'completed', `all done after losing ${held} leases`);
  t.equal(result.completedItems, 12);
  const docs = await conn.collection('subtasks').find({ taskId }).toArray();
  // Beyond its 4 slots a node holds leases unstarted (prefetch): those never reached the platform.
  const started = Math.min(held, 4);
  t.equal(
    c.sandbox.stats.byPath('/v1/chat/completions').length,
    12 + started,
    `the platform saw each sub task once, plus one re-run per started lost lease (${held} lost)`,
  );
  const redone = docs.filter((d) => d.attempts >= 2);
  t.ok(
    redone.length >= held,
    `${redone.length} sub tasks were run again: ${JSON.stringify(docs.map((d) => [d.attempts, d.lastNode]))}`,
  );
  t.ok(
    redone.every((d) => d.lastNode === 'crawler-2'),
    'on the surviving node',
  );
  t.ok(
    docs.every((d) => d.status === 'completed' && d.leaseToken === null),
    'one final result each, no lease left',
  );
  const task = await conn.collection('tasks').findOne({ _id: taskId as never });
  t.equal(task!.completedItems, 12, 'counted once each');
});
