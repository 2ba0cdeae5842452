/**
 * Leases shorter than the work stay held end to end: the crawler node renews
 * every lease it holds in one `tasks.renewBatch` call per half lease, so the
 * scheduler's expiry sweep never takes them. Every role in one process.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';

const sandbox = await startSandboxServer({ latencyMs: 7_000 });
t.teardown(() => sandbox.close());

const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  LEASE_MS: '1000',
  CRAWLER_CAPACITY: '4',
});
/** Leases per `tasks.renewBatch` call, seen by a pass-through spy on the broker. */
const renewals: number[] = [];
const call = svc.broker.call.bind(svc.broker);
svc.broker.call = ((action: string, params?: { leases?: unknown[] }, opts?: object) => {
  if (action === 'tasks.renewBatch') renewals.push(params?.leases?.length ?? 0);
  return call(action, params, opts);
}) as typeof svc.broker.call;
const user = await svc.newUser();
const M = '/api/business/monitor';

t.test('four 7 s answers under 1 s leases: held throughout, one call per tick', async (t) => {
  const submitted = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: ['one', 'two', 'three', 'four'],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
    },
    user.token,
  );
  t.equal(submitted.status, 200, submitted.text);
  const taskId = submitted.body.data.taskId as string;
  await untilTaskFinal(svc.client, user.token, taskId, 60_000, 200);
  const docs = await (await svc.db()).collection('subtasks').find({ taskId }).toArray();
  t.strictSame(
    docs.map((d) => [d.status, d.attempts]),
    docs.map(() => ['completed', 1]),
    'each completed on its first attempt: no lease expired',
  );
  t.equal(sandbox.stats.byPath('/v1/chat/completions').length, 4, 'no re-run');
  t.ok(renewals.length >= 8, `renewed every half lease (${renewals.length} calls)`);
  t.ok(
    renewals.length <= 40,
    `one call per tick for all four leases, not one per lease (${renewals.length} calls)`,
  );
  t.ok(
    renewals.some((n) => n === 4),
    'a call carries every lease held',
  );
});
