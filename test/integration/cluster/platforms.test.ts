/**
 * End to end over NATS with every role in its own process: crawler nodes
 * configured with the twelve vendors' stand-ins (`<PLATFORM>_API_KEY` /
 * `_BASE_URL`) advertise them, and one batch across all twelve completes with
 * exactly the extracted fields, a retryable failure retried once and a
 * credential failure final at once. The batch is pinned to a region, so every
 * request goes through that region's proxy (a real forward proxy on loopback
 * whose exit address is 127.0.0.5), as the stand-ins' records show.
 */
import t from 'tap';
import { findPlatform, supportedModes, type Mode } from '../../../services/shared/platforms.js';
import { platformsCluster } from '../../helpers/platform-cluster.js';
import { STANDIN_PLATFORMS } from '../../standins/index.js';
import { expectedAnswer } from '../../standins/expected.js';
import { startForwardProxy } from '../../helpers/forward-proxy.js';

const EXIT = '127.0.0.5';

t.test('a batch across all twelve vendor platforms completes with exact answers', async (t) => {
  const proxy = await startForwardProxy(EXIT);
  t.teardown(() => proxy.stop());
  const port = { port: proxy.port, url: proxy.url, regionCode: '440300', outIp: EXIT };
  const { cluster, standins } = await platformsCluster(
    t,
    { CRAWLER_PROXIES: JSON.stringify([port]) },
    { frontServices: 'api,tasks,users,proxies' },
  );
  const richest = (p: string): Mode => supportedModes(findPlatform(p)!, 'api').at(-1)!;
  const prompts = ['最好的 CRM 是什么？', 'which CRM? #fail:rate #once', 'CRM? #fail:auth'];
  const taskId = await cluster.submit({
    monitorKeywords: '阿克米',
    prompts,
    platforms: STANDIN_PLATFORMS.map((platform) => ({ platform, mode: richest(platform) })),
    regionCode: ['440300'],
  });
  const result = await cluster.finished(taskId, 120_000);
  t.equal(result.subTaskList.length, 36);

  const conn = await cluster.db();
  const attempts = new Map(
    (await conn.collection('subtasks').find({ taskId }).toArray()).map((d) => [
      String(d._id),
      d.attempts as number,
    ]),
  );
  for (const sub of result.subTaskList) {
    const label = `${sub.platform}/${sub.mode}/${sub.prompt}`;
    if (sub.prompt.includes('#fail:auth')) {
      t.equal(sub.status, 'error', `${label}: credentials trouble is final`);
      t.match(sub.errorMessage, new RegExp(`^${sub.platform} rejected the credentials`));
      t.equal(attempts.get(sub.subTaskId), 1, `${label}: not retried`);
      continue;
    }
    t.equal(sub.proxyIp, EXIT, `${label}: through the region's proxy`);
    t.equal(sub.status, 'completed', label);
    t.equal(
      attempts.get(sub.subTaskId),
      sub.prompt.includes('#once') ? 2 : 1,
      `${label}: attempts`,
    );
    const want = expectedAnswer(sub.platform, sub.mode, sub.prompt);
    t.same(
      {
        answerContent: sub.answerContent,
        referenceList: sub.referenceList,
        citationList: sub.citationList,
        reasoningProcess: sub.reasoningProcess,
        recommendedQuestions: sub.recommendedQuestions,
        mediaContent: sub.mediaContent,
        modelReported: sub.modelReported,
      },
      { ...want, modelReported: want.modelReported ?? null },
      `${label}: the fields, and the model the platform reported`,
    );
  }
  const sources = new Set(
    [...standins.values()].flatMap((s) => s.server.requests.map((r) => r.remoteAddress)),
  );
  t.same([...sources], [EXIT], 'every vendor request left through the regional proxy');

  // Gemini's 429s: a spent day or plan ends the sub task at once, a per-minute limit is retried.
  const gemini = await cluster.submit({
    monitorKeywords: '阿克米',
    prompts: ['CRM #fail:quota_day', 'CRM #fail:quota_plan', 'CRM #fail:rate #once'],
    platforms: [{ platform: 'gemini', mode: 'standard' }],
  });
  const quota = await cluster.finished(gemini, 60_000);
  const geminiAttempts = new Map(
    (await conn.collection('subtasks').find({ taskId: gemini }).toArray()).map((d) => [
      d.prompt as string,
      d.attempts as number,
    ]),
  );
  for (const sub of quota.subTaskList) {
    const final = !sub.prompt.includes('#fail:rate');
    t.equal(sub.status, final ? 'error' : 'completed', `${sub.prompt}: ${sub.errorMessage}`);
    t.equal(geminiAttempts.get(sub.prompt), final ? 1 : 2, `${sub.prompt}: attempts`);
    if (final) t.match(sub.errorMessage, /^gemini reports a billing, balance or quota problem/);
  }
});
