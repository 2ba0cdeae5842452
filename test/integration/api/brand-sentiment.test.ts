/**
 * Sentiment through the judge, every role in one process over the real
 * MongoDB-wire server: with ANALYSIS_PLATFORM=sandbox each answer that
 * mentions a brand gets the sandbox judge's verdicts (deterministic) shortly
 * after its sub task completed, through a crawler node's API driver; an answer
 * that mentions none is never judged. With a judge platform no crawler node
 * can run, the judge retries, gives up and says why; sentiment stays null.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { sandboxVerdicts } from '../../../sandbox/judge.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { until } from '../../helpers/wait.js';

const sandbox = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => sandbox.close());
const M = '/api/business/monitor';
const KEYWORDS = 'Acme|阿克米, Globex|格罗贝克斯, Initech, Hooli, Umbrella, Stark Industries';

interface Sub {
  subTaskId: string;
  answerContent: string;
  mentions: { keyword: string; count: number }[];
  mentioned: boolean;
  sentiment: unknown;
}

t.test('the sandbox judge gives each answer that mentions a brand its verdicts', async (t) => {
  const svc = await startEmbedded(t, {
    SERVICES: 'all',
    SANDBOX_URL: sandbox.url,
    ANALYSIS_PLATFORM: 'sandbox',
    ANALYSIS_POLL_MS: '50',
  });
  const user = await svc.newUser();
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: ['best CRM for a small team', 'which project tool should we buy', 'hello'],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
      monitorKeywords: KEYWORDS,
    },
    user.token,
  );
  t.equal(res.status, 200, res.text);
  const taskId = res.body.data.taskId as string;
  await untilTaskFinal(svc.client, user.token, taskId, 60_000, 100);
  const judged = await until(
    'every mentioned answer judged',
    async () => {
      const subs = (await svc.client.get(`${M}/task/result/${taskId}`, user.token)).body.data
        .subTaskList as Sub[];
      return subs.every((s) => !s.mentioned || s.sentiment !== null) ? subs : undefined;
    },
    60_000,
    100,
  );
  t.ok(
    judged.some((s) => s.mentioned),
    'the sandbox answers name some of the brands',
  );
  for (const s of judged) {
    const named = s.mentions.filter((m) => m.count > 0).map((m) => m.keyword);
    if (named.length === 0) t.equal(s.sentiment, null, 'an answer naming no brand is not judged');
    else t.same(s.sentiment, sandboxVerdicts(named, s.answerContent), 'the judge’s verdicts');
  }
  const db = await svc.db();
  t.equal(
    await db.collection('subtasks').countDocuments({ taskId, sentimentPending: true }),
    0,
    'nothing left waiting',
  );
  const judgeRequests = sandbox.stats.requests.filter((q) =>
    (q.prompt ?? '').startsWith('[brand-sentiment-judge v1]'),
  );
  t.equal(
    judgeRequests.length,
    judged.filter((s) => s.mentioned).length,
    'one judge request per answer that mentions a brand',
  );
});

t.test('a judge no crawler node can run: retried, then given up with the reason', async (t) => {
  const svc = await startEmbedded(t, {
    SERVICES: 'all',
    SANDBOX_URL: sandbox.url,
    // No DEEPSEEK_API_KEY: no crawler node runs deepseek over its API.
    ANALYSIS_PLATFORM: 'deepseek',
    ANALYSIS_MAX_ATTEMPTS: '2',
    ANALYSIS_POLL_MS: '50',
  });
  const user = await svc.newUser();
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: ['best CRM for a small team'],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
      monitorKeywords: KEYWORDS,
    },
    user.token,
  );
  const taskId = res.body.data.taskId as string;
  const final = await untilTaskFinal(svc.client, user.token, taskId, 60_000, 100);
  t.equal(
    final.body.data.status,
    'completed',
    'the sub task is final without waiting for the judge',
  );
  const db = await svc.db();
  const doc = await until(
    'the judge to give up',
    async () => {
      const d = await db.collection('subtasks').findOne({ taskId });
      return d && d.sentimentPending === undefined ? d : undefined;
    },
    30_000,
    100,
  );
  t.match(doc, {
    sentiment: null,
    sentimentAttempts: 2,
    sentimentError:
      'the judge gave up after 2 attempt(s): this crawler node cannot run deepseek over its API',
  });
});
