/**
 * Fairness: a small task of one user, submitted after another user's
 * 500-sub-task batch, is leased right away instead of waiting behind it.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';

const sandbox = await startSandboxServer({ latencyMs: 150 });
t.teardown(() => sandbox.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '8',
  CRAWLER_CHANNELS: 'api',
});
const M = '/api/business/monitor';

t.test('a small task finishes long before a big batch submitted earlier', async (t) => {
  const big = await svc.newUser('big');
  const small = await svc.newUser('small');
  const bigTasks: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await svc.client.post(
      `${M}/task/batch/shared`,
      {
        prompts: Array.from({ length: 50 }, (_, k) => `batch ${i} question ${k}`),
        platforms: [{ platform: 'sandbox', mode: 'standard' }],
      },
      big.token,
    );
    t.equal(res.status, 200);
    bigTasks.push(res.body.data.taskId);
  }
  const smallRes = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: ['urgent one', 'urgent two'],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
    },
    small.token,
  );
  const smallTask = smallRes.body.data.taskId as string;
  await untilTaskFinal(svc.client, small.token, smallTask, 60_000, 50);
  const conn = await svc.db();
  const bigDone = await conn
    .collection('subtasks')
    .countDocuments({ taskId: { $in: bigTasks }, status: 'completed' });
  t.ok(bigDone < 250, `the small task finished while the big batch was at ${bigDone}/500`);
  const smallStatus = await svc.client.get(`${M}/task/status/${smallTask}`, small.token);
  t.equal(smallStatus.body.data.status, 'completed');
});
