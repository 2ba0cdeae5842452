/**
 * Status answers are kept between changes (services/api/status-cache.ts), so
 * this test polls a running task hard and checks every answer against what
 * the process had heard before the poll was sent: a sub task announced final
 * must show that status, and the counters must count it. At the end the
 * status matches the stored sub task list exactly.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { FINAL_TASK, until } from '../../helpers/wait.js';

const sandbox = await startSandboxServer({ latencyMs: 40 });
t.teardown(() => sandbox.close());

const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '3',
  RETRY_BASE_MS: '50',
  RETRY_MAX_MS: '100',
});
const user = await svc.newUser();
const M = '/api/business/monitor';
const FINAL_SUB_TASK = ['completed', 'failed', 'timeout', 'error'];

/** The latest outcome of every sub task, as this process heard it announced. */
const heard = new Map<string, string>();
await svc.broker.createService({
  name: 'settle-probe',
  events: {
    'subtasks.settled'(ctx: { params: { settled: { subTaskId: string; outcome: string }[] } }) {
      for (const s of ctx.params.settled) heard.set(s.subTaskId, s.outcome);
    },
  },
});

interface Status {
  status: string;
  completedItems: number;
  failedItems: number;
  subTaskList: { subTaskId: string; status: string }[];
}

t.test('every status answer shows each sub task settled before the poll', async (t) => {
  const prompts = Array.from({ length: 8 }, (_, i) =>
    // Some fail once and are retried, some fail for good: every kind of settle.
    i % 4 === 1
      ? `question ${i} #fail:500x1`
      : i % 4 === 3
        ? `question ${i} #fail:401`
        : `question ${i}`,
  );
  const submitted = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts,
      platforms: [
        { platform: 'sandbox', mode: 'standard' },
        { platform: 'sandbox-cn', mode: 'search' },
      ],
    },
    user.token,
  );
  t.equal(submitted.status, 200, submitted.text);
  const taskId = submitted.body.data.taskId as string;

  let polls = 0;
  let checked = 0;
  const problems: string[] = [];
  let done = false;
  const poller = async () => {
    while (!done && problems.length === 0) {
      const before = new Map(heard);
      const res = await svc.client.get(`${M}/task/status/${taskId}`, user.token);
      polls += 1;
      if (res.status !== 200) {
        problems.push(`status ${res.status}`);
        return;
      }
      const data = res.body.data as Status;
      const shown = new Map(data.subTaskList.map((s) => [s.subTaskId, s.status]));
      let finals = 0;
      for (const [id, outcome] of before) {
        if (!FINAL_SUB_TASK.includes(outcome)) continue;
        finals += 1;
        checked += 1;
        if (shown.get(id) !== outcome)
          problems.push(`${id} was announced ${outcome}, the status showed ${shown.get(id)}`);
      }
      if (data.completedItems + data.failedItems < finals)
        problems.push(`counters ${data.completedItems}+${data.failedItems} < ${finals} announced`);
      if (FINAL_TASK.includes(data.status)) done = true;
    }
  };
  await until(
    'the pollers to see the task finish',
    async () => {
      await Promise.all(Array.from({ length: 4 }, poller));
      return true;
    },
    90_000,
  );
  t.same(problems, [], 'no answer older than an announced settle');
  t.ok(polls > 20 && checked > 0, `${polls} polls checked ${checked} announced sub tasks`);

  const status = (await svc.client.get(`${M}/task/status/${taskId}`, user.token)).body
    .data as Status;
  const result = await svc.client.get(`${M}/task/result/${taskId}`, user.token);
  const stored = (result.body.data.subTaskList as { subTaskId: string; status: string }[]).map(
    (s) => [s.subTaskId, s.status],
  );
  t.same(
    status.subTaskList.map((s) => [s.subTaskId, s.status]),
    stored,
    'the final status is the stored sub task list',
  );
  t.equal(status.completedItems, stored.filter(([, s]) => s === 'completed').length);
  t.equal(status.failedItems, stored.filter(([, s]) => s !== 'completed').length);
  t.equal(status.completedItems + status.failedItems, 16);
  t.ok(
    stored.some(([, s]) => s === 'completed') && stored.some(([, s]) => s !== 'completed'),
    'both outcomes occurred',
  );
});
