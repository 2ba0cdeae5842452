/**
 * A task whose sub tasks are not all written yet (a submission under way, or
 * one interrupted by a crash and not yet repaired) reads as its whole plan:
 * the sub tasks not stored yet show as pending, never as missing.
 */
import t from 'tap';
import { startEmbedded } from '../../helpers/cluster.js';

const M = '/api/business/monitor';
const svc = await startEmbedded(t);
const user = await svc.newUser();

t.test(
  'status, result and sub task result of a half-written task show every sub task',
  async (t) => {
    const res = await svc.client.post(
      `${M}/task/batch/shared`,
      {
        prompts: ['one', 'two', 'three'],
        platforms: [
          { platform: 'sandbox', mode: 'standard' },
          { platform: 'sandbox-cn', mode: 'search' },
        ],
      },
      user.token,
    );
    t.equal(res.status, 200, res.text);
    const { taskId, subTaskList } = res.body.data as {
      taskId: string;
      subTaskList: { subTaskId: string; status: string }[];
    };
    const conn = await svc.db();
    // As if the write had stopped half way: the flag down, the last three sub tasks missing.
    const missing = subTaskList.slice(3).map((s) => s.subTaskId);
    await conn.collection('subtasks').deleteMany({ _id: { $in: missing as never[] } });
    await conn
      .collection('tasks')
      .updateOne(
        { _id: taskId as never },
        { $set: { subtasksWritten: false }, $inc: { version: 1 } },
      );

    const status = await svc.client.get(`${M}/task/status/${taskId}`, user.token);
    t.same(
      status.body.data.subTaskList.map((s: { subTaskId: string; status: string }) => [
        s.subTaskId,
        s.status,
      ]),
      subTaskList.map((s) => [s.subTaskId, 'pending']),
    );
    const result = await svc.client.get(`${M}/task/result/${taskId}`, user.token);
    t.same(
      result.body.data.subTaskList.map((s: { subTaskId: string }) => s.subTaskId),
      subTaskList.map((s) => s.subTaskId),
    );
    const one = await svc.client.get(`${M}/task/result/${taskId}/${missing[0]}`, user.token);
    t.equal(one.status, 200, one.text);
    t.match(one.body.data, { subTaskId: missing[0], status: 'pending', answerContent: null });

    const other = await svc.newUser('other');
    const refused = await svc.client.get(`${M}/task/result/${taskId}/${missing[0]}`, other.token);
    t.equal(refused.status, 404, 'still only for its owner');
  },
);
