/**
 * Failure classes from the sandbox knobs end in the right sub task statuses
 * and task counters; retries happen up to MAX_ATTEMPTS and no further.
 * Every role in one process, the sandbox stand-in run by the test.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { until } from '../../helpers/wait.js';
import { untilTaskFinal } from '../../helpers/task-final.js';

const sandbox = await startSandboxServer({ latencyMs: 50 });
t.teardown(() => sandbox.close());

const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  // Room for a cold Chromium on a busy machine; the timeout case pays it three times.
  SANDBOX_TIMEOUT_MS: '8000',
  MAX_ATTEMPTS: '3',
  RETRY_BASE_MS: '100',
  RETRY_MAX_MS: '200',
  CRAWLER_CAPACITY: '6',
});
const user = await svc.newUser();
const M = '/api/business/monitor';

// Every finish the cluster announces, to prove there is exactly one per task.
const finishes = new Map<string, string[]>();
await svc.broker.createService({
  name: 'finish-probe',
  events: {
    'task.finished'(ctx: { params: { taskId: string; status: string } }) {
      finishes.set(ctx.params.taskId, [
        ...(finishes.get(ctx.params.taskId) ?? []),
        ctx.params.status,
      ]);
    },
  },
});

async function runToEnd(body: unknown) {
  const submitted = await svc.client.post(`${M}/task/batch/shared`, body, user.token);
  t.equal(submitted.status, 200, submitted.text);
  const taskId = submitted.body.data.taskId as string;
  await untilTaskFinal(svc.client, user.token, taskId, 90_000, 200);
  const result = await svc.client.get(`${M}/task/result/${taskId}`, user.token);
  await until('the finish event', async () => finishes.has(taskId), 5_000, 20);
  t.same(
    finishes.get(taskId),
    [result.body.data.status],
    'exactly one task.finished, with the final status',
  );
  const conn = await svc.db();
  const docs = await conn.collection('subtasks').find({ taskId }).toArray();
  const attempts = Object.fromEntries(docs.map((d) => [d.prompt as string, d.attempts as number]));
  return { taskId, result: result.body.data, attempts };
}

const requestsFor = (prompt: string) =>
  sandbox.stats.requests.filter((r) => r.prompt === prompt && r.path === '/v1/chat/completions')
    .length;

t.test('every failure class, retried only when retryable and only up to the limit', async (t) => {
  const prompts = [
    'plain question',
    'flaky server #fail:500x1',
    'busy #fail:429x2',
    'always broken #fail:500',
    'bad key #fail:401',
    'nothing to say #fail:empty',
    'too slow #fail:timeout',
    'declines #fail:refuse',
  ];
  const { result, attempts } = await runToEnd({
    prompts,
    platforms: [{ platform: 'sandbox', mode: 'search' }],
  });
  const byPrompt = Object.fromEntries(
    result.subTaskList.map((s: { prompt: string }) => [s.prompt, s]),
  );
  const expect: [string, string, number, RegExp | null][] = [
    ['plain question', 'completed', 1, null],
    ['flaky server #fail:500x1', 'completed', 2, null],
    ['busy #fail:429x2', 'completed', 3, null],
    ['always broken #fail:500', 'failed', 3, /500/],
    ['bad key #fail:401', 'error', 1, /401|key/i],
    ['nothing to say #fail:empty', 'failed', 1, /no answer/i],
    ['too slow #fail:timeout', 'timeout', 3, /within|deadline|timeout/i],
    ['declines #fail:refuse', 'failed', 1, /refus/i],
  ];
  for (const [prompt, status, tries, message] of expect) {
    const sub = byPrompt[prompt];
    t.equal(sub.status, status, `${prompt}: status`);
    t.equal(attempts[prompt], tries, `${prompt}: attempts`);
    t.equal(requestsFor(prompt), tries, `${prompt}: requests that reached the platform`);
    if (message) t.match(sub.errorMessage, message, `${prompt}: errorMessage`);
    else t.equal(sub.errorMessage, null, `${prompt}: no errorMessage`);
    t.ok(Number.isInteger(sub.time), `${prompt}: time is set once final`);
    if (status === 'completed') {
      t.ok(sub.answerContent.length > 0);
      t.ok(
        sub.referenceList.length > sub.citationList.length && sub.citationList.length > 0,
        'search mode: cited subset',
      );
    } else {
      t.equal(sub.answerContent, null);
    }
  }
  t.equal(result.status, 'partial_completed');
  t.equal(result.completedItems, 3);
  t.equal(result.failedItems, 5);
});

t.test('a task whose sub tasks all fail is failed; a login wall is never an answer', async (t) => {
  const { result, attempts } = await runToEnd({
    prompts: ['walled #fail:login', 'still walled #fail:login'],
    platforms: [{ platform: 'sandbox-web', mode: 'standard', screenshot: 1 }],
  });
  t.equal(result.status, 'failed');
  t.equal(result.completedItems, 0);
  t.equal(result.failedItems, 2);
  for (const sub of result.subTaskList) {
    t.equal(sub.status, 'failed');
    t.match(sub.errorMessage, /login/i);
    t.equal(sub.answerContent, null);
    t.equal(sub.pageScreenshot, null);
  }
  // The wall is met once and the site never asked again. (An attempt may be
  // counted before it: a cold Chromium on a loaded machine can miss the
  // deadline before the page opens, and that attempt is rightly retried.)
  for (const prompt of ['walled #fail:login', 'still walled #fail:login']) {
    const asked = sandbox.stats.requests.filter(
      (r) => r.prompt === prompt && r.path === '/web/chat',
    );
    t.same(
      asked.map((r) => r.failure),
      ['login'],
      `${prompt}: the site is asked once, and answers with its login wall`,
    );
    t.ok(attempts[prompt]! >= 1, `${prompt}: attempted`);
  }
});

t.test('status and counters while running, completedAt set once at the end', async (t) => {
  const { taskId, result } = await runToEnd({
    prompts: ['a', 'b', 'c'],
    platforms: [
      { platform: 'sandbox', mode: 'reasoning' },
      { platform: 'sandbox-cn', mode: 'standard' },
    ],
  });
  t.equal(result.status, 'completed');
  const status = await svc.client.get(`${M}/task/status/${taskId}`, user.token);
  t.equal(status.body.data.message, '6/6 completed, 0 failed');
  t.ok(status.body.data.completedAt >= status.body.data.createdAt);
  for (const sub of result.subTaskList) {
    if (sub.mode === 'reasoning')
      t.ok(sub.reasoningProcess?.content, 'reasoning mode has reasoning');
    else t.equal(sub.reasoningProcess, null, 'standard mode has none');
    t.same(sub.referenceList, [], 'no search, no references');
  }
});
