/**
 * End to end over NATS with every role in its own process: crawler nodes
 * configured with the twelve vendors' stand-ins (`<PLATFORM>_API_KEY` /
 * `_BASE_URL`) advertise them, and one batch across all twelve completes with
 * exactly the extracted fields, a retryable failure retried once and a
 * credential failure final at once. The batch of the vendors that serve
 * mainland China is pinned to a region, so their every request goes through
 * that region's proxy (a real forward proxy on loopback whose exit address is
 * 127.0.0.5), as the stand-ins' records show; ChatGPT, Gemini and Perplexity,
 * which refuse a region, run in a batch without one, from the node itself.
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
  // The vendors that serve mainland China in the region; the others (ChatGPT, Gemini, Perplexity)
  // refuse a region, so they go in a batch without one and leave from the node itself.
  const abroad = (p: string) => findPlatform(p)!.serves === 'outside-mainland';
  const batch = (platforms: string[], region: boolean) =>
    cluster.submit({
      monitorKeywords: '阿克米',
      prompts,
      platforms: platforms.map((platform) => ({ platform, mode: richest(platform) })),
      ...(region ? { regionCode: ['440300'] } : {}),
    });
  const [inRegion, withoutRegion] = await Promise.all([
    batch(
      STANDIN_PLATFORMS.filter((p) => !abroad(p)),
      true,
    ),
    batch(STANDIN_PLATFORMS.filter(abroad), false),
  ]);
  const [a, b] = await Promise.all([
    cluster.finished(inRegion, 120_000),
    cluster.finished(withoutRegion, 120_000),
  ]);
  const result = { subTaskList: [...a.subTaskList, ...b.subTaskList] };
  t.equal(result.subTaskList.length, 36);
  t.equal(b.subTaskList.length, 9, 'three vendors serve outside mainland China');

  const conn = await cluster.db();
  const attempts = new Map(
    (
      await conn
        .collection('subtasks')
        .find({ taskId: { $in: [inRegion, withoutRegion] } })
        .toArray()
    ).map((d) => [String(d._id), d.attempts as number]),
  );
  for (const sub of result.subTaskList) {
    const label = `${sub.platform}/${sub.mode}/${sub.prompt}`;
    if (sub.prompt.includes('#fail:auth')) {
      t.equal(sub.status, 'error', `${label}: credentials trouble is final`);
      t.match(sub.errorMessage, new RegExp(`^${sub.platform} rejected the credentials`));
      t.equal(attempts.get(sub.subTaskId), 1, `${label}: not retried`);
      continue;
    }
    t.equal(
      sub.proxyIp,
      abroad(sub.platform) ? null : EXIT,
      `${label}: through the region's proxy, or from the node for a vendor abroad`,
    );
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
  const sources = (outside: boolean) =>
    new Set(
      [...standins.values()]
        .filter((s) => abroad(s.platform) === outside)
        .flatMap((s) => s.server.requests.map((r) => r.remoteAddress)),
    );
  t.same([...sources(false)], [EXIT], 'every request of a region batch left through its proxy');
  t.same([...sources(true)], ['127.0.0.1'], 'the vendors abroad were reached from the node');

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
