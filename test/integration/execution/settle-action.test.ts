/**
 * The `tasks` service's lease actions over the broker: `settleBatch` and
 * `renewBatch`, what crawler nodes send. Sub tasks are leased by hand (first
 * attempt), so no scheduler or crawler node runs; the events are caught by a
 * probe service.
 */
import t from 'tap';
import { startEmbedded } from '../../helpers/cluster.js';
import { plainResult } from '../../helpers/results.js';
import type { SubTasksSettled } from '../../../services/shared/contracts/events.js';

const svc = await startEmbedded(t, { SERVICES: 'api,tasks,users' });
const user = await svc.newUser();
const conn = await svc.db();

const broadcasts: SubTasksSettled[] = [];
const finishes: string[] = [];
await svc.broker.createService({
  name: 'settle-probe',
  events: {
    'subtasks.settled'(ctx: { params: SubTasksSettled }) {
      broadcasts.push(ctx.params);
    },
    'task.finished'(ctx: { params: { taskId: string } }) {
      finishes.push(ctx.params.taskId);
    },
  },
});

/** A submitted task whose sub tasks are all leased under `token`; their ids in prompt order. */
async function leasedTask(prompts: string[], token: string) {
  const res = await svc.client.post(
    '/api/business/monitor/task/batch/shared',
    { prompts, platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    user.token,
  );
  t.equal(res.status, 200, res.text);
  const taskId = res.body.data.taskId as string;
  await conn.collection('subtasks').updateMany(
    { taskId },
    {
      $set: { status: 'processing', leaseToken: token, leaseNode: 'hand' },
      $inc: { attempts: 1 },
    },
  );
  const docs = await conn.collection('subtasks').find({ taskId }).sort({ seq: 1 }).toArray();
  return { taskId, ids: docs.map((d) => String(d._id)) };
}

const settled = () => broadcasts.flatMap((b) => b.settled.map((s) => [s.subTaskId, s.outcome]));

t.beforeEach(() => {
  broadcasts.length = 0;
  finishes.length = 0;
});

t.test('a batch: each report answered in order, one broadcast, one finish', async (t) => {
  const { taskId, ids } = await leasedTask(['one', 'two', 'three'], 'tok-1');
  const answer = await svc.broker.call('tasks.settleBatch', {
    reports: [
      { subTaskId: ids[0], taskId, token: 'tok-1', attempt: 1, result: plainResult, proxyIp: null },
      { subTaskId: ids[1], taskId, token: 'an-old-token', attempt: 1, result: plainResult },
      {
        subTaskId: ids[2],
        taskId,
        token: 'tok-1',
        attempt: 1,
        failure: { status: 'error', retryable: false, message: 'invalid API key' },
      },
    ],
  });
  t.strictSame(answer, {
    results: [
      { accepted: true, outcome: 'completed' },
      { accepted: false },
      { accepted: true, outcome: 'error' },
    ],
  });
  t.equal(broadcasts.length, 1, 'one broadcast for the batch');
  t.strictSame(settled(), [
    [ids[0], 'completed'],
    [ids[2], 'error'],
  ]);
  // (Still `pending`: leased by hand, without a claim's bookkeeping.)
  t.match(await conn.collection('tasks').findOne({ _id: taskId as never }), {
    status: 'pending',
    completedItems: 1,
    failedItems: 1,
  });

  await svc.broker.call('tasks.settleBatch', {
    reports: [{ subTaskId: ids[1], taskId, token: 'tok-1', attempt: 1, result: plainResult }],
  });
  t.match(await conn.collection('tasks').findOne({ _id: taskId as never }), {
    status: 'partial_completed',
    completedItems: 2,
    failedItems: 1,
  });
  t.strictSame(finishes, [taskId], 'the task finished once');
});

t.test('a report names its task and attempt; one-report actions do not exist', async (t) => {
  const { taskId, ids } = await leasedTask(['named'], 'tok-2');
  for (const missing of ['taskId', 'attempt'] as const) {
    const report: Record<string, unknown> = {
      subTaskId: ids[0],
      taskId,
      token: 'tok-2',
      attempt: 1,
      result: plainResult,
    };
    delete report[missing];
    await t.rejects(
      svc.broker.call('tasks.settleBatch', { reports: [report] }),
      { name: 'ValidationError' },
      `a report without ${missing} is refused`,
    );
  }
  for (const action of ['tasks.settle', 'tasks.renew'])
    await t.rejects(svc.broker.call(action, {}), { name: 'ServiceNotFoundError' }, action);
  t.match(await conn.collection('subtasks').findOne({ _id: ids[0] as never }), {
    status: 'processing',
  });
  t.strictSame(broadcasts, []);
});

t.test('malformed reports are refused whole, before anything is written', async (t) => {
  const { taskId, ids } = await leasedTask(['kept'], 'tok-3');
  await t.rejects(
    svc.broker.call('tasks.settleBatch', {
      reports: [
        { subTaskId: ids[0], taskId, token: 'tok-3', attempt: 1, result: plainResult },
        { subTaskId: 42 },
      ],
    }),
    { name: 'ValidationError' },
  );
  t.match(await conn.collection('subtasks').findOne({ _id: ids[0] as never }), {
    status: 'processing',
  });
  t.match(await conn.collection('tasks').findOne({ _id: taskId as never }), { completedItems: 0 });
  t.strictSame(broadcasts, []);
});

t.test('renewBatch extends every lease of a node in one call', async (t) => {
  const { ids } = await leasedTask(['r1', 'r2'], 'tok-r');
  const answer = await svc.broker.call<{ held: boolean[]; expiresAt: number }, object>(
    'tasks.renewBatch',
    {
      leases: [
        { subTaskId: ids[0], token: 'tok-r' },
        { subTaskId: ids[1], token: 'other' },
      ],
    },
  );
  t.strictSame(answer.held, [true, false], 'each lease answered in order');
  const doc = await conn.collection('subtasks').findOne({ _id: ids[0] as never });
  t.equal(doc!.leaseExpiresAt, answer.expiresAt, 'the held one extended');
  await t.rejects(
    svc.broker.call('tasks.renewBatch', { leases: [{ subTaskId: ids[0] }] }),
    { name: 'ValidationError' },
    'a lease without its token is refused',
  );
});

t.test("an answer stores the report's effective mode, stream format and evidence", async (t) => {
  const { taskId, ids } = await leasedTask(['read', 'assumed'], 'tok-modes');
  await svc.broker.call('tasks.settleBatch', {
    reports: [
      {
        subTaskId: ids[0],
        taskId,
        token: 'tok-modes',
        attempt: 1,
        result: {
          ...plainResult,
          effectiveMode: 'search',
          formatVersion: 'deepseek-2026',
          evidenceId: 'ev-1',
        },
      },
      { subTaskId: ids[1], taskId, token: 'tok-modes', attempt: 1, result: plainResult },
    ],
  });
  const docs = await conn.collection('subtasks').find({ taskId }).sort({ seq: 1 }).toArray();
  t.same(
    docs.map((d) => [d.mode, d.effectiveMode, d.formatVersion, d.evidenceId]),
    [
      ['standard', 'search', 'deepseek-2026', 'ev-1'],
      ['standard', 'standard', null, null],
    ],
    'a report without the effective mode ran the requested one',
  );
  const res = await svc.client.get(`/api/business/monitor/task/result/${taskId}`, user.token);
  t.same(
    res.body.data.subTaskList.map((s: { channel: string; effectiveMode: string }) => [
      s.channel,
      s.effectiveMode,
    ]),
    [
      ['api', 'search'],
      ['api', 'standard'],
    ],
  );
});
