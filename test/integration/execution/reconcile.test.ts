/** The recount that mends task counters after a crash between two writes. */
import t from 'tap';
import { createLedger } from '../../../services/shared/subtasks/ledger.js';
import { taskModels } from '../../../services/shared/subtasks/models.js';
import { startEmbedded } from '../../helpers/cluster.js';

const svc = await startEmbedded(t);
const user = await svc.newUser();

t.test('counters drifted by a crash are recounted once the task is quiet', async (t) => {
  const res = await svc.client.post(
    '/api/business/monitor/task/batch/shared',
    { prompts: ['a', 'b', 'c'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    user.token,
  );
  const taskId = res.body.data.taskId as string;
  const conn = await svc.db();
  const subtasks = conn.collection('subtasks');
  const ledger = createLedger(taskModels(conn), svc.config, { now: () => Date.now() });

  // Two sub tasks final, one still running; the counters never saw any of it.
  const [a, b] = res.body.data.subTaskList.map((s: { subTaskId: string }) => s.subTaskId);
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
