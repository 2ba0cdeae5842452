/**
 * End to end over NATS, each role in its own process: api+tasks+users, the
 * scheduler, two crawler nodes (real Chromium for the web channel).
 */
import t from 'tap';
import { resultDataSchema, envelopeOf } from '../../../services/api/contract.js';
import { startCluster, type Cluster } from '../../helpers/cluster-processes.js';
import { FINAL_TASK, until } from '../../helpers/wait.js';

const M = '/api/business/monitor';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function submit(c: Cluster, body: unknown): Promise<string> {
  const res = await c.client.post(`${M}/task/batch/shared`, body, c.token);
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data.taskId;
}

async function finished(c: Cluster, taskId: string, timeoutMs = 120_000) {
  await until(
    `task ${taskId} to finish`,
    async () => {
      const s = await c.client.get(`${M}/task/status/${taskId}`, c.token);
      return FINAL_TASK.includes(s.body.data.status) ? true : undefined;
    },
    timeoutMs,
    250,
  );
  const res = await c.client.get(`${M}/task/result/${taskId}`, c.token);
  return envelopeOf(resultDataSchema).parse(res.body).data;
}

t.test('a 20 prompts × 3 platforms batch in mixed modes with screenshots completes', async (t) => {
  const c = await startCluster(t, { crawlers: 2, crawlerCapacity: 4 });
  const prompts = Array.from(
    { length: 20 },
    (_, i) => `Which CRM should team ${i + 1} pick? 第${i + 1}题`,
  );
  const taskId = await submit(c, {
    monitorKeywords: 'Acme',
    prompts,
    platforms: [
      { platform: 'sandbox', mode: 'search', screenshot: 1 },
      { platform: 'sandbox-web', mode: 'reasoning', screenshot: 1 },
      { platform: 'sandbox-cn', mode: 'reasoning_search', screenshot: 2 },
    ],
  });
  const result = await finished(c, taskId, 180_000);
  t.equal(result.status, 'completed');
  t.equal(result.totalItems, 60);
  t.equal(result.completedItems, 60);
  t.equal(result.failedItems, 0);

  const conn = await c.db();
  const docs = await conn.collection('subtasks').find({ taskId }).toArray();
  t.ok(
    docs.every((d) => d.attempts === 1),
    'every sub task ran exactly once',
  );
  const nodesUsed = new Set(docs.map((d) => d.lastNode));
  t.same([...nodesUsed].sort(), ['crawler-1', 'crawler-2'], 'both crawler nodes took work');

  for (const sub of result.subTaskList) {
    const label = `${sub.platform}/${sub.mode}/${sub.prompt}`;
    t.equal(sub.status, 'completed', label);
    t.ok(sub.answerContent && sub.answerContent.length > 50, `${label}: answer`);
    t.ok(Number.isInteger(sub.time), `${label}: time`);
    t.equal(sub.errorMessage, null);
    const search = sub.mode.includes('search');
    const reasoning = sub.mode.includes('reasoning');
    t.equal(sub.referenceList.length > 0, search, `${label}: references only in search modes`);
    t.equal(sub.citationList.length > 0, search, `${label}: citations only in search modes`);
    const urls = new Set(sub.referenceList.map((r) => r.url));
    t.ok(
      sub.citationList.every((r) => urls.has(r.url)),
      `${label}: citations are a subset`,
    );
    t.equal(
      sub.reasoningProcess !== null,
      reasoning,
      `${label}: reasoning only in reasoning modes`,
    );
    t.ok(sub.recommendedQuestions.length > 0, `${label}: follow-up questions`);
    t.ok(sub.pageScreenshot, `${label}: screenshot URL`);
  }
  // Each prompt reached the platform exactly once per platform.
  const requests = c.sandbox.stats.requests.filter(
    (r) => r.prompt && (r.channel === 'api' || r.channel === 'web'),
  );
  t.equal(requests.length, 60, 'sixty platform requests for sixty sub tasks');

  for (const sub of result.subTaskList.slice(0, 6)) {
    const res = await fetch(sub.pageScreenshot!);
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await res.arrayBuffer());
    t.same(png.subarray(0, 8), PNG, 'a real PNG');
    t.ok(png.length > 5_000, 'with a rendered page in it');
  }
  const missing = await fetch(
    result.subTaskList[0]!.pageScreenshot!.replace(/[0-9a-f]{32}/, '0'.repeat(32)),
  );
  t.equal(missing.status, 404);
});

t.test('kill -9 a crawler node holding leases: its work is redone elsewhere, once', async (t) => {
  const c = await startCluster(t, {
    crawlers: 2,
    crawlerCapacity: 4,
    sandboxLatencyMs: 3_000,
    env: { LEASE_MS: '20000' },
  });
  const taskId = await submit(c, {
    prompts: Array.from({ length: 12 }, (_, i) => `question ${i}`),
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
  });
  const conn = await c.db();
  const held = await until('crawler-1 to hold leases', async () => {
    const n = await conn
      .collection('subtasks')
      .countDocuments({ taskId, status: 'processing', leaseNode: 'crawler-1' });
    return n > 0 ? n : undefined;
  });
  c.nodes.get('crawler-1')!.child.kill('SIGKILL');
  const result = await finished(c, taskId, 120_000);
  t.equal(result.status, 'completed', `all done after losing ${held} leases`);
  t.equal(result.completedItems, 12);
  const docs = await conn.collection('subtasks').find({ taskId }).toArray();
  const redone = docs.filter((d) => d.attempts === 2);
  t.ok(redone.length >= held, `${redone.length} sub tasks were run again`);
  t.ok(
    redone.every((d) => d.lastNode === 'crawler-2'),
    'on the surviving node',
  );
  t.ok(
    docs.every((d) => d.status === 'completed' && d.leaseToken === null),
    'one final result each, no lease left',
  );
  const task = await conn.collection('tasks').findOne({ _id: taskId as never });
  t.equal(task!.completedItems, 12, 'counted once each');
});

t.test(
  'kill -9 the active scheduler: the standby takes over and the batch completes',
  async (t) => {
    const c = await startCluster(t, {
      crawlers: 1,
      schedulers: 2,
      crawlerCapacity: 4,
      sandboxLatencyMs: 500,
    });
    const conn = await c.db();
    const leader = await until('a leader', async () => {
      const lock = await conn.collection('locks').findOne({ _id: 'scheduler' as never });
      return lock?.owner as string | undefined;
    });
    const taskId = await submit(c, {
      prompts: Array.from({ length: 24 }, (_, i) => `q${i}`),
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
    });
    await until(
      'work to start',
      async () =>
        (await conn.collection('subtasks').countDocuments({ taskId, status: 'completed' })) > 0,
    );
    const killedAt = Date.now();
    c.nodes.get(leader)!.child.kill('SIGKILL');
    const standby = leader === 'scheduler-1' ? 'scheduler-2' : 'scheduler-1';
    await until(
      'the standby to take the lock',
      async () =>
        (await conn.collection('locks').findOne({ _id: 'scheduler' as never }))?.owner === standby,
      20_000,
    );
    t.ok(Date.now() - killedAt < 15_000, `takeover within 15 s (${Date.now() - killedAt} ms)`);
    const result = await finished(c, taskId, 120_000);
    t.equal(result.status, 'completed');
    t.equal(result.completedItems, 24);
  },
);
