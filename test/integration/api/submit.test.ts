import t from 'tap';
import {
  envelopeOf,
  errorEnvelopeSchema,
  submitDataSchema,
} from '../../../services/shared/contracts/http.js';
import { startEmbedded, snapshotCounts } from '../../helpers/cluster.js';

const SUBMIT = '/api/business/monitor/task/batch/shared';

const svc = await startEmbedded(t);
const alice = await svc.newUser('alice');

t.test('a valid submission creates prompts × platforms pending sub tasks', async (t) => {
  const res = await svc.client.post(
    SUBMIT,
    {
      monitorKeywords: 'Acme，阿克米、acme',
      prompts: ['best CRM?', '最好的CRM是什么？'],
      platforms: [
        { platform: 'ChatGPT', mode: 'search', screenshot: 1 },
        { platform: 'deepseek', mode: 'reasoning' },
        { platform: 'openai', mode: 'standard' }, // alias of chatgpt: a duplicate
        { platform: 'CHATGPT', mode: 'reasoning' }, // duplicate by case
      ],
      // regionCode is checked against live proxy ports: test/integration/cluster/regions.test.ts
      callbackUrl: 'https://example.com/hook',
    },
    alice.token,
  );
  t.equal(res.status, 200);
  const body = envelopeOf(submitDataSchema).parse(res.body);
  t.equal(body.message, 'batch task submitted');
  t.equal(body.data.totalTask, 4, 'two prompts × two platforms after dedup');
  t.equal(body.data.status, 'pending');
  t.equal(body.data.pollUrl, `/api/business/monitor/task/status/${body.data.taskId}`);
  t.same(
    body.data.subTaskList.map((s) => [s.prompt, s.platform, s.mode, s.status]),
    [
      ['best CRM?', 'chatgpt', 'search', 'pending'],
      ['best CRM?', 'deepseek', 'reasoning', 'pending'],
      ['最好的CRM是什么？', 'chatgpt', 'search', 'pending'],
      ['最好的CRM是什么？', 'deepseek', 'reasoning', 'pending'],
    ],
  );
  t.equal(
    new Set(body.data.subTaskList.map((s) => s.subTaskId)).size,
    4,
    'sub task ids are unique',
  );

  const conn = await svc.db();
  const task = await conn.collection('tasks').findOne({ _id: body.data.taskId as never });
  t.match(task, {
    userId: alice.userId,
    regionCode: null,
    callbackUrl: 'https://example.com/hook',
    keywords: ['Acme', '阿克米'],
    platforms: [
      { platform: 'chatgpt', mode: 'search', screenshot: 1 },
      { platform: 'deepseek', mode: 'reasoning', screenshot: 0 },
    ],
    subtasksWritten: true,
  });
  t.equal(await conn.collection('subtasks').countDocuments({ taskId: body.data.taskId }), 4);
});

t.test('every violated rule is listed and nothing is stored', async (t) => {
  const conn = await svc.db();
  const before = await snapshotCounts(conn);
  const res = await svc.client.post(
    SUBMIT,
    {
      prompts: Array.from({ length: 51 }, () => 'p'),
      platforms: [
        { platform: 'nosuch', mode: 'standard' },
        { platform: 'deepseek', mode: 'search' },
        { platform: 'claude', mode: 'fast', screenshot: 3 },
      ],
      regionCode: ['110000', '310000'],
      callbackUrl: 'ftp://example.com/x',
      monitorKeywords: 7,
      name: 'tab\there',
    },
    alice.token,
  );
  t.equal(res.status, 400);
  const body = errorEnvelopeSchema.parse(res.body);
  t.equal(body.code, 400);
  const fields = body.errors!.map((e) => e.field).sort();
  t.same(fields, [
    'callbackUrl',
    'monitorKeywords',
    'name',
    'platforms[0].platform',
    'platforms[1].mode',
    'platforms[2].mode',
    'platforms[2].screenshot',
    'prompts',
    'regionCode',
  ]);
  t.match(
    body.errors!.find((e) => e.field === 'platforms[0].platform')!.message,
    /valid platforms: chatgpt/,
  );
  t.match(
    body.errors!.find((e) => e.field === 'platforms[1].mode')!.message,
    /deepseek does not support mode search/,
  );
  t.equal(
    body.errors!.find((e) => e.field === 'name')!.message,
    'must not contain control characters (line breaks, tabs, NUL)',
  );
  t.same(await snapshotCounts(conn), before);
});

t.test('a name is stored trimmed and shown by status, result and list', async (t) => {
  const res = await svc.client.post(
    SUBMIT,
    {
      name: '  CRM shortlist · 第十二周  ',
      prompts: ['best CRM?'],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
    },
    alice.token,
  );
  t.equal(res.status, 200, res.text);
  const taskId = res.body.data.taskId as string;
  const name = 'CRM shortlist · 第十二周';
  const conn = await svc.db();
  t.match(await conn.collection('tasks').findOne({ _id: taskId as never }), { name });
  const M = '/api/business/monitor';
  t.equal((await svc.client.get(`${M}/task/status/${taskId}`, alice.token)).body.data.name, name);
  t.equal((await svc.client.get(`${M}/task/result/${taskId}`, alice.token)).body.data.name, name);
  const list = (await svc.client.get(`${M}/task/list?size=100`, alice.token)).body.data.tasks as {
    taskId: string;
    name: string | null;
  }[];
  t.equal(list.find((x) => x.taskId === taskId)?.name, name);
  t.ok(
    list.filter((x) => x.taskId !== taskId).every((x) => x.name === null),
    'tasks without a name have null',
  );
});
