/**
 * Discovered brands and citation opportunities (issue 36) end to end, every
 * role in one process over the real MongoDB-wire server: a sandbox batch
 * watching Globex and Acme (the sandbox recommends three of its six brands
 * per prompt) stores each answer's discovered brands with it, and the full
 * result and GET …/task/{taskId}/visibility carry the brands nobody watched
 * and the domains cited where a competitor is named and Acme is not; summed
 * once when the task became final and stored with it, and summed on read for
 * a running task and one finished before they were stored.
 */
import t from 'tap';
import { brandsFor } from '../../../sandbox/answers.js';
import { startSandboxServer } from '../../../sandbox/server.js';
import { domainOf } from '../../../services/shared/brand/domains.js';
import { insightDigest, type DigestSource } from '../../../services/shared/brand/insight-digest.js';
import { STORED_INSIGHTS_VERSION } from '../../../services/shared/brand/stored-insights.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';

const sandbox = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => sandbox.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '8',
});
const alice = await svc.newUser('alice');
const M = '/api/business/monitor';
const WATCHED = ['Acme', 'Globex'];
const PROMPTS = [
  'best CRM for a small team',
  'which project tool should we buy',
  '最好的客服软件',
  'top help desk software',
  'best password manager for families',
];

interface Ref {
  url: string;
  title: string;
}
interface Sub {
  subTaskId: string;
  prompt: string;
  channel: string;
  status: string;
  citationList: Ref[];
  referenceList: Ref[];
}

t.test('the brands nobody watched and the sources where Acme is missing', async (t) => {
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: PROMPTS,
      platforms: [
        { platform: 'sandbox', mode: 'search' },
        { platform: 'sandbox', mode: 'search', channel: 'web' },
      ],
      monitorKeywords: WATCHED.join(','),
    },
    alice.token,
  );
  t.equal(res.status, 200, res.text);
  const taskId = res.body.data.taskId as string;
  await untilTaskFinal(svc.client, alice.token, taskId, 90_000, 100);
  const result = (await svc.client.get(`${M}/task/result/${taskId}`, alice.token)).body.data;
  const subs = result.subTaskList as Sub[];
  t.equal(subs.filter((s) => s.status === 'completed').length, 10);

  const stored = await (
    await svc.db()
  )
    .collection('subtasks')
    .find(
      { taskId },
      {
        projection: {
          prompt: 1,
          discovered: 1,
          mentions: 1,
          citationList: 1,
          referenceList: 1,
          insightDigest: 1,
        },
      },
    )
    .toArray();
  for (const doc of stored) {
    t.strictSame(
      doc.insightDigest,
      insightDigest(doc as DigestSource),
      `${doc.prompt}: the insights' digest stored with the answer, read back as written`,
    );
    const expected = brandsFor(doc.prompt as string)
      .map((b) => b.name)
      .filter((name) => !WATCHED.includes(name));
    t.same(
      (doc.discovered as { name: string }[]).map((d) => d.name),
      expected,
      `${doc.prompt}: the unwatched brands it recommends, stored in order`,
    );
  }

  const v = result.visibility;
  // Expected from the sandbox's own choice of brands, not from the service's code.
  const naming = new Map<string, Sub[]>();
  for (const s of subs)
    for (const b of brandsFor(s.prompt))
      if (!WATCHED.includes(b.name)) naming.set(b.name, [...(naming.get(b.name) ?? []), s]);
  t.same(
    new Set(v.discovered.map((d: { name: string }) => d.name)),
    new Set(naming.keys()),
    'every unwatched brand the answers recommend, and nothing else',
  );
  for (const d of v.discovered) {
    const those = naming.get(d.name)!;
    t.equal(d.answers, those.length, `${d.name}: answers`);
    t.equal(d.share, those.length / 10, `${d.name}: share`);
    const positions = those.map((s) => brandsFor(s.prompt).findIndex((b) => b.name === d.name) + 1);
    t.equal(d.bestPosition, Math.min(...positions), `${d.name}: best position`);
    t.ok(
      those.some((s) => s.subTaskId === d.example.subTaskId && s.prompt === d.example.prompt),
      `${d.name}: the example names it`,
    );
    t.same(
      d.places.map((p: { channel: string }) => p.channel),
      [...new Set(those.map((s) => s.channel))].sort(),
      `${d.name}: where, split by channel as the rows are`,
    );
  }
  for (let i = 1; i < v.discovered.length; i++)
    t.ok(v.discovered[i - 1].answers >= v.discovered[i].answers, 'most named first');

  const missing = subs.filter(
    (s) => s.status === 'completed' && !brandsFor(s.prompt).some((b) => b.name === 'Acme'),
  );
  const cited = new Map<string, number>();
  const contrast = new Map<string, number>();
  for (const s of subs) {
    const domains = new Set(s.citationList.map((c) => domainOf(c.url)!));
    const into = missing.includes(s) ? cited : contrast;
    for (const d of domains) into.set(d, (into.get(d) ?? 0) + 1);
  }
  t.ok(missing.length > 0 && missing.length < 10, 'some answers leave Acme out');
  const opportunities = v.opportunities as {
    domain: string;
    answers: number;
    userAnswers: number;
    retrievedAnswers: number;
    pages: Ref[];
    retrieved: Ref[];
    prompts: string[];
    competitors: string[];
  }[];
  t.same(
    new Set(opportunities.filter((o) => o.answers > 0).map((o) => o.domain)),
    new Set(cited.keys()),
    'every domain cited where Acme is missing',
  );
  for (const o of opportunities) {
    t.equal(o.answers, cited.get(o.domain) ?? 0, `${o.domain}: answers`);
    t.equal(o.userAnswers, contrast.get(o.domain) ?? 0, `${o.domain}: cited where Acme is named`);
    for (const p of o.pages) t.equal(domainOf(p.url), o.domain, 'its own pages');
    for (const p of o.retrieved) {
      t.ok(
        missing.some(
          (s) =>
            s.referenceList.some((r) => r.url === p.url) &&
            !s.citationList.some((c) => c.url === p.url),
        ),
        `${p.url}: retrieved and not cited in an answer without Acme`,
      );
    }
    for (const prompt of o.prompts) t.ok(missing.some((s) => s.prompt === prompt));
    t.notOk(o.competitors.includes('Acme'));
  }
  t.ok(
    opportunities.some((o) => o.retrievedAnswers > 0),
    'the sandbox separates retrieved from cited sources',
  );

  const alone = await svc.client.get(`${M}/task/${taskId}/visibility`, alice.token);
  t.same(alone.body.data.discovered, v.discovered, 'the visibility endpoint: discovered');
  t.same(alone.body.data.opportunities, v.opportunities, 'the visibility endpoint: opportunities');

  // Summed once when the task became final and stored with it; reads use that.
  // Stored just after the finish, off the finishing settle's path.
  const db = await svc.db();
  const storedTask = async () => db.collection('tasks').findOne({ _id: taskId as never });
  const until = Date.now() + 10_000;
  while (!(await storedTask())!.insights && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const task = await storedTask();
  t.equal(
    task!.insights.version,
    STORED_INSIGHTS_VERSION,
    'the insights stored with the final task',
  );
  t.same(task!.insights.discovered, v.discovered, 'the result: the stored discovered brands');
  t.same(task!.insights.opportunities, v.opportunities, 'the result: the stored opportunities');
  const fromStored = await svc.client.get(`${M}/task/${taskId}/visibility`, alice.token);
  t.same(
    fromStored.body.data,
    alone.body.data,
    'read with the stored insights: the same visibility',
  );

  // A task finished before the insights were stored: they are summed as it is read.
  await db.collection('tasks').updateOne({ _id: taskId as never }, { $unset: { insights: '' } });
  const unstored = await svc.client.get(`${M}/task/${taskId}/visibility`, alice.token);
  t.same(
    unstored.body.data,
    alone.body.data,
    'a task without stored insights: the same visibility',
  );
  const unstoredResult = await svc.client.get(`${M}/task/result/${taskId}`, alice.token);
  t.same(unstoredResult.body.data.visibility, v, 'and the same result');

  // Answers recorded before the digest existed: it is made as they are read.
  await db.collection('subtasks').updateMany({ taskId }, { $unset: { insightDigest: '' } });
  const before = await svc.client.get(`${M}/task/${taskId}/visibility`, alice.token);
  t.same(before.body.data, alone.body.data, 'answers stored without a digest: the same visibility');
});
