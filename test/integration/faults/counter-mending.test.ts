/**
 * A tasks node killed between a sub task's write and its count: the sub task
 * is final, its task's counters never saw it. The crawler node sends the
 * report again (its call got no answer); the tasks node that takes it drops it
 * (the lease is gone), announces the orphan and mends the task's counters as
 * soon as every sub task is final and quiet (1.5 s), so the task is final within
 * seconds of its last sub task, without any scheduler. And a tasks node that
 * starts mends every unfinished task it finds.
 */
import t from 'tap';
import { createBroker } from '../../../services/index.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { plainResult } from '../../helpers/results.js';
import { until } from '../../helpers/wait.js';
import type { SubTasksSettled } from '../../../services/shared/contracts/events.js';

const svc = await startEmbedded(t, { SERVICES: 'api,tasks,users' });
const user = await svc.newUser();
const conn = await svc.db();
const M = '/api/business/monitor';

const settledIds: string[] = [];
await svc.broker.createService({
  name: 'settle-probe',
  events: {
    'subtasks.settled'(ctx: { params: SubTasksSettled }) {
      settledIds.push(...ctx.params.settled.map((s) => s.subTaskId));
    },
  },
});

/** A submitted task whose sub tasks are all leased under `token`; their ids in prompt order. */
async function leasedTask(prompts: string[], token: string) {
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts, platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    user.token,
  );
  t.equal(res.status, 200, res.text);
  const taskId = res.body.data.taskId as string;
  await conn
    .collection('tasks')
    .updateOne({ _id: taskId as never }, { $set: { status: 'processing' } });
  await conn.collection('subtasks').updateMany(
    { taskId },
    {
      $set: { status: 'processing', leaseToken: token, leaseNode: 'crawler-x' },
      $inc: { attempts: 1 },
    },
  );
  const docs = await conn.collection('subtasks').find({ taskId }).sort({ seq: 1 }).toArray();
  return { taskId, ids: docs.map((d) => String(d._id)) };
}

/** What a tasks node killed after the sub task's write leaves: the result, and no count. */
async function writtenByADeadNode(ids: string[]) {
  await conn.collection('subtasks').updateMany(
    { _id: { $in: ids as never[] } },
    {
      $set: {
        status: 'completed',
        time: Date.now(),
        answerContent: 'an answer',
        leaseToken: null,
        leaseNode: null,
        leaseExpiresAt: null,
      },
    },
  );
}

async function status(taskId: string) {
  const res = await svc.client.get(`${M}/task/status/${taskId}`, user.token);
  return res.body.data as {
    status: string;
    completedItems: number;
    subTaskList: { status: string }[];
  };
}

t.test('a report sent again after a lost answer mends the task within seconds', async (t) => {
  const { taskId, ids } = await leasedTask(['a', 'b', 'c', 'd'], 'tok-1');
  // The status view caches the sub task list; it has seen them all running.
  t.equal((await status(taskId)).subTaskList.filter((s) => s.status === 'processing').length, 4);
  await writtenByADeadNode(ids.slice(0, 2));
  // No version bump came with them, yet the list catches up within a second.
  const seen = await until(
    'the status view to show the results written',
    async () => {
      const s = await status(taskId);
      return s.subTaskList.filter((x) => x.status === 'completed').length === 2 ? s : undefined;
    },
    3_000,
    100,
  );
  t.equal(seen.completedItems, 0, 'the counters are short until mended');
  settledIds.length = 0;
  // The other two reach a live node; the first two are sent again to it.
  const answer = await svc.broker.call('tasks.settleBatch', {
    reports: ids.map((subTaskId) => ({
      subTaskId,
      taskId,
      token: 'tok-1',
      attempt: 1,
      result: plainResult,
    })),
  });
  t.strictSame(answer, {
    results: [
      { accepted: false },
      { accepted: false },
      { accepted: true, outcome: 'completed' },
      { accepted: true, outcome: 'completed' },
    ],
  });
  t.strictSame(settledIds.sort(), [...ids].sort(), 'the orphans are announced as well');
  const lastFinal = Date.now();
  const mended = await until(
    'the task to be final',
    async () => {
      const s = await status(taskId);
      return s.status === 'completed' ? s : undefined;
    },
    15_000,
    100,
  );
  const tookMs = Date.now() - lastFinal;
  t.ok(tookMs < 5_000, `final ${tookMs} ms after its last sub task (target: 5 s)`);
  t.equal(mended.completedItems, 4, 'counted once each');
  t.ok(
    mended.subTaskList.every((s) => s.status === 'completed'),
    'the status view agrees with its own sub task list',
  );
});

t.test('a tasks node that starts mends the unfinished tasks it finds', async (t) => {
  const { taskId, ids } = await leasedTask(['e', 'f', 'g'], 'tok-2');
  await svc.broker.call('tasks.settleBatch', {
    reports: [{ subTaskId: ids[0], taskId, token: 'tok-2', attempt: 1, result: plainResult }],
  });
  // The rest were written by a tasks node that died before counting them, and
  // the crawler node that reported them died too: no report comes again.
  await writtenByADeadNode(ids.slice(1));
  await new Promise((r) => setTimeout(r, 2_000));
  t.match(await status(taskId), { status: 'processing', completedItems: 1 }, 'still short');

  const restarted = await createBroker({ ...svc.config, nodeId: `${svc.config.nodeId}-2` }, [
    'tasks',
  ]);
  await restarted.start();
  t.teardown(() => restarted.stop());
  const started = Date.now();
  await until(
    'the task to be final',
    async () => (await status(taskId)).status === 'completed',
    15_000,
    100,
  );
  t.ok(Date.now() - started < 5_000, 'within seconds of the start');
  t.match(await status(taskId), { completedItems: 3 });
});
