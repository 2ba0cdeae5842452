/** The recount that mends task counters after a crash between two writes. */
import t from 'tap';
import { createLedger, UNCOUNTED_STALE_MS } from '../../../services/shared/subtasks/ledger.js';
import { taskModels } from '../../../services/shared/subtasks/models.js';
import { startEmbedded } from '../../helpers/cluster.js';

const svc = await startEmbedded(t);
const user = await svc.newUser();

/** A task of these sandbox prompts, its sub task ids, and a ledger on the service's database. */
async function submitted(prompts: string[]) {
  const res = await svc.client.post(
    '/api/business/monitor/task/batch/shared',
    { prompts, platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    user.token,
  );
  const conn = await svc.db();
  return {
    taskId: res.body.data.taskId as string,
    subTaskIds: res.body.data.subTaskList.map(
      (s: { subTaskId: string }) => s.subTaskId,
    ) as string[],
    conn,
    // Keyed by the service's string ids, not ObjectIds.
    subtasks: conn.collection<{ _id: string; [field: string]: unknown }>('subtasks'),
    ledger: createLedger(taskModels(conn), svc.config, { now: () => Date.now() }),
  };
}

t.test('counters drifted by a crash are recounted once the task is quiet', async (t) => {
  const { taskId, subTaskIds, conn, subtasks, ledger } = await submitted(['a', 'b', 'c']);

  // Two sub tasks final, one still running; the counters never saw any of it.
  const [a, b] = subTaskIds;
  const now = Date.now();
  await subtasks.updateOne({ _id: a }, { $set: { status: 'completed', time: now - 120_000 } });
  await subtasks.updateOne({ _id: b }, { $set: { status: 'error', time: now - 120_000 } });
  await subtasks.updateMany({ taskId, status: 'pending' }, { $set: { status: 'processing' } });
  t.equal(await ledger.reconcile(taskId, 60_000), undefined, 'not while a sub task is open');

  await subtasks.updateMany(
    { taskId, status: 'processing' },
    { $set: { status: 'completed', time: now } },
  );
  t.equal(await ledger.reconcile(taskId, 60_000), undefined, 'not within the quiet period');

  const finished = await ledger.reconcile(taskId, 0);
  t.match(finished, { taskId, userId: user.userId, status: 'partial_completed' });
  const task = await conn.collection('tasks').findOne({ _id: taskId as never });
  t.match(task, { status: 'partial_completed', completedItems: 2, failedItems: 1 });
  t.ok(task!.completedAt >= now);
  t.equal(await ledger.reconcile(taskId, 0), undefined, 'a finished task is left alone');
});

t.test(
  'a settle between its final write and its count is waited for, never counted twice',
  async (t) => {
    const { taskId, subTaskIds, conn, subtasks, ledger } = await submitted(['d', 'e']);
    const tasks = conn.collection('tasks');
    const [a, b] = subTaskIds;
    const now = Date.now();

    // `a` counted long ago; `b` written final by a settle that has not counted it yet (the
    // soak saw an overloaded tasks node take seconds there), quiet for the mender's window.
    await subtasks.updateOne({ _id: a }, { $set: { status: 'completed', time: now - 120_000 } });
    await tasks.updateOne({ _id: taskId as never }, { $inc: { completedItems: 1, version: 1 } });
    await subtasks.updateOne(
      { _id: b },
      { $set: { status: 'completed', time: now - 5_000, uncounted: 'tasks-1/incarnation-2' } },
    );
    const running = (settler: string) => settler === 'tasks-1/incarnation-2';
    t.equal(
      await ledger.reconcile(taskId, 0, running),
      undefined,
      'the mender waits for the settle',
    );
    t.match(await tasks.findOne({ _id: taskId as never }), {
      completedItems: 1,
      status: 'pending',
    });

    // The settle's late count, as countFinals makes it: the addition, then the mark taken off.
    await tasks.updateOne({ _id: taskId as never }, { $inc: { completedItems: 1, version: 1 } });
    await subtasks.updateOne({ _id: b }, { $unset: { uncounted: '' } });
    t.match(await ledger.reconcile(taskId, 0, running), { taskId, status: 'completed' });
    t.match(await tasks.findOne({ _id: taskId as never }), { completedItems: 2, failedItems: 0 });
  },
);

t.test('a young mark whose settler is gone (killed, restarted) is recounted at once', async (t) => {
  const { taskId, subTaskIds, conn, subtasks, ledger } = await submitted(['g']);
  const [a] = subTaskIds;
  await subtasks.updateOne(
    { _id: a },
    { $set: { status: 'completed', time: Date.now() - 2_000, uncounted: 'tasks-1/incarnation-1' } },
  );
  // Its node came back as incarnation 2: incarnation 1's count will never come.
  const restarted = (settler: string) => settler === 'tasks-1/incarnation-2';
  t.match(await ledger.reconcile(taskId, 0, restarted), { taskId, status: 'completed' });
  t.match(await conn.collection('tasks').findOne({ _id: taskId as never }), { completedItems: 1 });
  t.equal((await subtasks.findOne({ _id: a }))!.uncounted, undefined, 'the mark is off');
});

t.test('a mark older than the bound is recounted even if its settler seems alive', async (t) => {
  const { taskId, subTaskIds, conn, subtasks, ledger } = await submitted(['f']);
  const [a] = subTaskIds;
  await subtasks.updateOne(
    { _id: a },
    {
      $set: {
        status: 'failed',
        time: Date.now() - UNCOUNTED_STALE_MS - 1_000,
        uncounted: 'tasks-1/incarnation-1',
      },
    },
  );
  // Seen alive (a registry that has not noticed its death yet): only the mark's age tells.
  t.match(await ledger.reconcile(taskId, 0, () => true), { taskId, status: 'failed' });
  t.match(await conn.collection('tasks').findOne({ _id: taskId as never }), {
    completedItems: 0,
    failedItems: 1,
  });
  t.equal((await subtasks.findOne({ _id: a }))!.uncounted, undefined, 'the mark is off');
});
