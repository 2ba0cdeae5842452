import t from 'tap';
import {
  envelopeOf,
  listDataSchema,
  resultDataSchema,
  statusDataSchema,
  subTaskResultSchema,
} from '../../../services/shared/contracts/http.js';
import { startEmbedded } from '../../helpers/cluster.js';

const M = '/api/business/monitor';
const svc = await startEmbedded(t);
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');

async function submit(
  token: string,
  prompts: string[],
  platforms = [{ platform: 'sandbox', mode: 'standard' }],
) {
  const res = await svc.client.post(`${M}/task/batch/shared`, { prompts, platforms }, token);
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data as { taskId: string; subTaskList: { subTaskId: string }[] };
}

const first = await submit(
  alice.token,
  ['one', 'two'],
  [
    { platform: 'sandbox', mode: 'search' },
    { platform: 'kimi', mode: 'reasoning' },
  ],
);

t.test(
  'status: counters, progress message, timestamps as integers, null completedAt',
  async (t) => {
    const before = Date.now();
    const res = await svc.client.get(`${M}/task/status/${first.taskId}`, alice.token);
    t.equal(res.status, 200);
    const { data } = envelopeOf(statusDataSchema).parse(res.body);
    t.equal(data.taskId, first.taskId);
    t.equal(data.status, 'pending');
    t.equal(data.message, '0/4 completed, 0 failed');
    t.same([data.totalItems, data.completedItems, data.failedItems], [4, 0, 0]);
    t.ok(
      Number.isInteger(data.createdAt) &&
        data.createdAt <= before &&
        data.createdAt > before - 60_000,
    );
    t.equal(data.completedAt, null);
    t.same(
      data.subTaskList.map((s) => s.subTaskId),
      first.subTaskList.map((s) => s.subTaskId),
    );
  },
);

t.test('status accepts an upper-case UUID', async (t) => {
  const res = await svc.client.get(`${M}/task/status/${first.taskId.toUpperCase()}`, alice.token);
  t.equal(res.status, 200);
});

t.test('full result has every sub task field of spec 2.3', async (t) => {
  const res = await svc.client.get(`${M}/task/result/${first.taskId}`, alice.token);
  t.equal(res.status, 200);
  const { data } = envelopeOf(resultDataSchema).parse(res.body);
  t.equal(data.subTaskList.length, 4);
  const sub = data.subTaskList[0]!;
  t.same(Object.keys(sub).sort(), [
    'answerContent',
    'answerSource',
    'channel',
    'citationList',
    'effectiveMode',
    'errorMessage',
    'formatVersion',
    'mediaContent',
    'mentionScreenshot',
    'mentioned',
    'mentions',
    'mode',
    'modelReported',
    'pageScreenshot',
    'platform',
    'prompt',
    'proxyIp',
    'rawEvidence',
    'reasoningProcess',
    'recommendedQuestions',
    'referenceList',
    'screenshotNote',
    'sentiment',
    'status',
    'subTaskId',
    'time',
  ]);
  t.match(sub, {
    platform: 'sandbox',
    channel: 'api',
    mode: 'search',
    effectiveMode: null,
    prompt: 'one',
    status: 'pending',
    time: null,
    answerContent: null,
  });
});

t.test('one sub task result', async (t) => {
  const id = first.subTaskList[3]!.subTaskId;
  const res = await svc.client.get(`${M}/task/result/${first.taskId}/${id}`, alice.token);
  t.equal(res.status, 200);
  const { data } = envelopeOf(subTaskResultSchema).parse(res.body);
  t.match(data, { subTaskId: id, prompt: 'two', platform: 'kimi', mode: 'reasoning' });
});

t.test('unknown ids are 404, a non-UUID taskId is 400', async (t) => {
  const unknown = '3f2b8c1e-0000-4000-8000-000000000000';
  for (const path of [
    `${M}/task/status/${unknown}`,
    `${M}/task/result/${unknown}`,
    `${M}/task/result/${unknown}/${first.subTaskList[0]!.subTaskId}`,
    `${M}/task/result/${first.taskId}/${unknown}`,
    `${M}/task/result/${first.taskId}/not-a-sub-task`,
  ]) {
    const res = await svc.client.get(path, alice.token);
    t.equal(res.status, 404, path);
    t.match(res.body, { success: false, code: 404, data: null }, path);
  }
  for (const path of [`${M}/task/status/123`, `${M}/task/result/abc`, `${M}/task/result/abc/def`]) {
    const res = await svc.client.get(path, alice.token);
    t.equal(res.status, 400, path);
    t.same(res.body.errors, [{ field: 'taskId', message: 'must be a UUID' }]);
  }
});

t.test('tenant isolation: another user sees 404 and an empty list', async (t) => {
  for (const path of [
    `${M}/task/status/${first.taskId}`,
    `${M}/task/result/${first.taskId}`,
    `${M}/task/result/${first.taskId}/${first.subTaskList[0]!.subTaskId}`,
  ]) {
    const res = await svc.client.get(path, bob.token);
    t.equal(res.status, 404, path);
  }
  const list = await svc.client.get(`${M}/task/list`, bob.token);
  t.same(list.body.data, { total: 0, page: 1, size: 10, tasks: [] });
});

t.test('list: newest first, pages, size, status filter, defaults', async (t) => {
  const carol = await svc.newUser('carol');
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) {
    ids.push((await submit(carol.token, [`prompt ${i}`])).taskId);
  }
  const newestFirst = [...ids].reverse();

  const page1 = await svc.client.get(`${M}/task/list`, carol.token);
  t.equal(page1.status, 200);
  const d1 = envelopeOf(listDataSchema).parse(page1.body).data;
  t.equal(d1.total, 12);
  t.equal(d1.page, 1);
  t.equal(d1.size, 10);
  t.same(
    d1.tasks.map((x) => x.taskId),
    newestFirst.slice(0, 10),
  );
  t.match(d1.tasks[0], {
    prompts: ['prompt 11'],
    platforms: [{ mode: 'standard', platform: 'sandbox', screenshot: 0 }],
    status: 'pending',
    totalItems: 1,
    completedItems: 0,
    failedItems: 0,
    completedAt: null,
  });

  const page2 = await svc.client.get(`${M}/task/list?page=2&size=10`, carol.token);
  t.same(
    page2.body.data.tasks.map((x: { taskId: string }) => x.taskId),
    newestFirst.slice(10),
  );
  const small = await svc.client.get(`${M}/task/list?page=3&size=5`, carol.token);
  t.same(
    small.body.data.tasks.map((x: { taskId: string }) => x.taskId),
    newestFirst.slice(10, 12),
  );
  const beyond = await svc.client.get(`${M}/task/list?page=9`, carol.token);
  t.same(beyond.body.data.tasks, []);
  t.equal(beyond.body.data.total, 12);

  const pending = await svc.client.get(`${M}/task/list?status=pending&size=100`, carol.token);
  t.equal(pending.body.data.total, 12);
  const done = await svc.client.get(`${M}/task/list?status=completed`, carol.token);
  t.equal(done.body.data.total, 0);
});

t.test('list: invalid query parameters are 400 with every problem', async (t) => {
  const res = await svc.client.get(`${M}/task/list?page=0&size=101&status=done`, alice.token);
  t.equal(res.status, 400);
  t.same(res.body.errors.map((e: { field: string }) => e.field).sort(), ['page', 'size', 'status']);
  for (const q of ['size=0', 'size=-1', 'size=abc', 'page=1.5', 'page=1&page=2', 'size=']) {
    const r = await svc.client.get(`${M}/task/list?${q}`, alice.token);
    t.equal(r.status, 400, q);
  }
  const max = await svc.client.get(`${M}/task/list?size=100`, alice.token);
  t.equal(max.status, 200);
  t.equal(max.body.data.size, 100);
});

t.test('platform catalogue', async (t) => {
  const res = await svc.client.get(`${M}/platforms`, alice.token);
  t.equal(res.status, 200);
  const names = res.body.data.map((p: { platform: string }) => p.platform);
  for (const n of [
    'chatgpt',
    'claude',
    'gemini',
    'perplexity',
    'deepseek',
    'doubao',
    'kimi',
    'qwen',
    'yuanbao',
    'wenxin',
    'zhipu',
    'grok',
    'sandbox',
  ]) {
    t.ok(names.includes(n), n);
  }
  const deepseek = res.body.data.find((p: { platform: string }) => p.platform === 'deepseek');
  t.same(deepseek.modes, ['standard', 'reasoning']);
  t.equal((await svc.client.get(`${M}/platforms`)).status, 401);
});

t.test('status keeps its answer until an event or 250 ms, then shows what is stored', async (t) => {
  const task = await submit(alice.token, ['cached']);
  const path = `${M}/task/status/${task.taskId}`;
  const conn = await svc.db();
  const firstRead = Date.now();
  t.equal((await svc.client.get(path, alice.token)).body.data.subTaskList[0].status, 'pending');
  // A change no event announces (as a lease taken): the kept answer stands for a moment.
  await conn
    .collection('subtasks')
    .updateOne(
      { _id: task.subTaskList[0]!.subTaskId as never },
      { $set: { status: 'processing' } },
    );
  const kept = await svc.client.get(path, alice.token);
  // On a machine too busy to ask again within 250 ms, the answer is rightly read anew.
  if (Date.now() - firstRead < 250)
    t.equal(kept.body.data.subTaskList[0].status, 'pending', 'the answer kept (the cache)');
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(
    (await svc.client.get(path, alice.token)).body.data.subTaskList[0].status,
    'processing',
    'read again after 250 ms',
  );
  // An announced change is shown at once.
  await conn
    .collection('subtasks')
    .updateOne({ _id: task.subTaskList[0]!.subTaskId as never }, { $set: { status: 'completed' } });
  await svc.broker.broadcast('subtasks.settled', {
    settled: [
      {
        subTaskId: task.subTaskList[0]!.subTaskId,
        taskId: task.taskId,
        node: null,
        platform: 'sandbox',
        outcome: 'completed',
      },
    ],
  });
  t.equal(
    (await svc.client.get(path, alice.token)).body.data.subTaskList[0].status,
    'completed',
    'dropped by the event',
  );
});
