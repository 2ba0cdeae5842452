/**
 * What must hold after any fault, for one batch of a fault cluster: every sub
 * task final and completed with no lease left; every platform request counted
 * as an attempt of its sub task; counters exact and the status view agreeing
 * with its own sub task list; one webhook id and one successful delivery.
 */
import type { Test } from 'tap';
import type { FaultCluster } from './fault-cluster.js';
import { until, FINAL_TASK } from './wait.js';

type Assert = Pick<Test, 'equal' | 'ok' | 'strictSame'>;

export interface Outcome {
  /** completedAt of the task minus the time of its last sub task, in ms. */
  finishLagMs: number;
  /** Platform requests beyond one per sub task (re-runs after a lost attempt). */
  extraRequests: number;
}

export async function checkOutcome(
  t: Assert,
  c: FaultCluster,
  taskId: string,
  tag: string,
  n: number,
): Promise<Outcome> {
  const conn = await c.db();
  const task = await until(
    `task ${tag} to be final`,
    async () => {
      const doc = await conn.collection('tasks').findOne({ _id: taskId as never });
      return doc && FINAL_TASK.includes(doc.status as string) ? doc : undefined;
    },
    180_000,
    200,
  );
  const subs = await conn.collection('subtasks').find({ taskId }).toArray();
  const completed = subs.filter((s) => s.status === 'completed');
  t.equal(completed.length, n, `${tag}: every sub task completed`);
  t.ok(
    subs.every((s) => s.leaseToken === null),
    `${tag}: no lease left`,
  );
  t.equal(task.status, 'completed', `${tag}: task completed`);
  t.equal(task.completedItems, n, `${tag}: completedItems exact`);
  t.equal(task.failedItems, 0, `${tag}: failedItems exact`);

  const requests = new Map<string, number>();
  for (const r of c.sandbox.stats.byPath('/v1/chat/completions'))
    if (r.prompt?.startsWith(`${tag} `)) requests.set(r.prompt, (requests.get(r.prompt) ?? 0) + 1);
  const uncounted = subs.filter((s) => (requests.get(s.prompt as string) ?? 0) > s.attempts);
  t.strictSame(
    uncounted.map((s) => [s.prompt, requests.get(s.prompt as string), s.attempts]),
    [],
    `${tag}: no platform request beyond the sub task's attempts`,
  );
  t.ok(
    subs.every((s) => (requests.get(s.prompt as string) ?? 0) >= 1),
    `${tag}: every completed sub task was asked of the platform`,
  );

  const view = await c.client.get(`/api/business/monitor/task/status/${taskId}`, c.token);
  const list = view.body.data.subTaskList as { status: string }[];
  t.equal(view.body.data.completedItems, n, `${tag}: the status view's counters`);
  t.equal(
    list.filter((s) => s.status === 'completed').length,
    n,
    `${tag}: the status view's own list agrees`,
  );

  const delivery = await until(
    `the callback of ${tag}`,
    async () => {
      const d = await conn.collection('deliveries').findOne({ _id: taskId as never });
      return d?.status === 'SUCCEEDED' ? d : undefined;
    },
    60_000,
    200,
  );
  const received = c.receiver.requestsTo(`/${tag}`);
  t.equal(received.length, 1, `${tag}: one delivery reached the receiver`);
  t.strictSame(
    [...new Set(received.map((r) => r.headers['webhook-id']))],
    [delivery.webhookId],
    `${tag}: one webhook id`,
  );
  t.equal(
    (delivery.attempts as { httpStatus: number | null }[]).filter((a) => a.httpStatus === 200)
      .length,
    1,
    `${tag}: one successful attempt recorded`,
  );

  const lastSubTask = Math.max(...subs.map((s) => s.time as number));
  const extraRequests = [...requests.values()].reduce((a, b) => a + b, 0) - n;
  return { finishLagMs: (task.completedAt as number) - lastSubTask, extraRequests };
}
