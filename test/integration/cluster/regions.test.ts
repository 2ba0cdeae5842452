/**
 * Region-pinned crawling through real forward proxies on loopback. Each proxy
 * leaves from its own address (Shanghai 127.0.0.2 and 127.0.0.3, Beijing
 * 127.0.0.4) and the sandbox records the source address of every request,
 * so the test sees which port each sub task's traffic really used, on both
 * channels. Two crawler nodes over NATS: crawler-1 serves Shanghai,
 * crawler-2 Beijing.
 */
import t from 'tap';
import { startCluster } from '../../helpers/cluster-processes.js';
import { startForwardProxy } from '../../helpers/forward-proxy.js';
import { until } from '../../helpers/wait.js';
import { standinEnv, startPlatformStandins } from '../../standins/index.js';

const SH: string[] = ['127.0.0.2', '127.0.0.3'];
const BJ = '127.0.0.4';
const CITY_INFO = '/api/business/eip-edge/ports/city-info';
const M = '/api/business/monitor';

const [sh1, sh2, bj] = await Promise.all([...SH, BJ].map((ip) => startForwardProxy(ip)));
t.teardown(() => Promise.all([sh1, sh2, bj].map((p) => p!.stop().catch(() => undefined))));
const ports = (list: { port: number; url: string; localAddress: string }[], code: string) =>
  JSON.stringify(
    list.map((p) => ({ port: p.port, url: p.url, regionCode: code, outIp: p.localAddress })),
  );

// ChatGPT serves no mainland region; DeepSeek does: both vendors' stand-ins see each request's exit.
const vendors = await startPlatformStandins(['chatgpt', 'deepseek']);
t.teardown(() => Promise.all([...vendors.values()].map((v) => v.server.close())));

const c = await startCluster(t, {
  crawlers: 2,
  crawlerCapacity: 4,
  sandboxLatencyMs: 300,
  frontServices: 'api,tasks,users,proxies',
  env: { REGION_WAIT_MS: '3000', PROXY_CHECK_MS: '300', PROXY_RESYNC_MS: '1000' },
  crawlerEnv: (i, env) => ({
    CRAWLER_PROXIES: i === 1 ? ports([sh1!, sh2!], '310100') : ports([bj!], '110100'),
    PROXY_CHECK_URL: `${env.SANDBOX_URL}/ip`,
    ...standinEnv(vendors),
  }),
});

interface Record {
  port: number;
  regionCode: string[];
  outIp: string;
  active: boolean;
}
const cityInfo = async (dedupe?: boolean): Promise<Record[]> => {
  const q = dedupe === undefined ? '' : `?deduplicate=${dedupe}`;
  const res = await c.client.get(`${CITY_INFO}${q}`);
  return res.body.data as Record[];
};
const activeOf = async (ip: string) => (await cityInfo()).find((r) => r.outIp === ip)?.active;

t.test('city-info lists every port, named, active', async (t) => {
  await until('three active ports', async () =>
    (await cityInfo()).filter((r) => r.active).length === 3 ? true : undefined,
  );
  const all = await cityInfo();
  t.same(all.map((r) => [r.outIp, r.regionCode]).sort(), [
    ['127.0.0.2', ['310000', '310100']],
    ['127.0.0.3', ['310000', '310100']],
    ['127.0.0.4', ['110000', '110100']],
  ]);
  t.match(
    all.find((r) => r.outIp === BJ),
    { province: '北京市', city: '北京市', port: bj!.port },
  );
  const deduped = await cityInfo(true);
  t.equal(deduped.length, 2, 'one port per region');
});

t.test('each sub task leaves through a port of its own region, on both channels', async (t) => {
  const platforms = [
    { platform: 'sandbox', mode: 'search' },
    { platform: 'sandbox-web', mode: 'standard' },
  ];
  const shTask = await c.submit({
    prompts: ['sh one', 'sh two', 'sh three'],
    platforms,
    regionCode: ['310100'],
  });
  const bjTask = await c.submit({
    prompts: ['bj one', 'bj two'],
    platforms,
    regionCode: ['110000'],
  });
  const anyTask = await c.submit({ prompts: ['anywhere'], platforms: [platforms[0]] });
  const [sh, bjr, any] = await Promise.all([
    c.finished(shTask),
    c.finished(bjTask),
    c.finished(anyTask),
  ]);
  t.equal(sh.status, 'completed');
  t.equal(bjr.status, 'completed');
  t.equal(any.status, 'completed');

  const conn = await c.db();
  t.match(await conn.collection('tasks').findOne({ _id: shTask as never }), {
    regionCode: '310100',
  });
  const seenFrom = (prompt: string) =>
    c.sandbox.stats.requests
      .filter((r) => r.prompt === prompt && r.channel !== 'page')
      .map((r) => r.remoteAddress.replace(/^::ffff:/, ''));
  const expected: [typeof sh, string[], string][] = [
    [sh, SH, 'crawler-1'],
    [bjr, [BJ], 'crawler-2'],
  ];
  for (const [result, allowed, node] of expected) {
    for (const sub of result.subTaskList) {
      t.ok(allowed.includes(sub.proxyIp!), `${sub.prompt} ${sub.platform}: proxyIp ${sub.proxyIp}`);
      const doc = await conn.collection('subtasks').findOne({ _id: sub.subTaskId as never });
      t.equal(doc!.lastNode, node, `${sub.prompt} ${sub.platform}: ran on ${node}`);
    }
    for (const prompt of new Set(result.subTaskList.map((s) => s.prompt))) {
      const from = seenFrom(prompt);
      t.equal(from.length, 2, `${prompt}: one request per channel reached the platform`);
      const ips = result.subTaskList.filter((s) => s.prompt === prompt).map((s) => s.proxyIp);
      t.same(from.sort(), [...ips].sort(), `${prompt}: the platform saw exactly the proxy exits`);
    }
  }
  t.ok([...SH, BJ].includes(any.subTaskList[0]!.proxyIp!), 'no region: some active port');
  t.same(seenFrom('anywhere'), [any.subTaskList[0]!.proxyIp]);
});

t.test("only the platform's own requests leave through the regional proxies", async (t) => {
  const platforms = [
    { platform: 'sandbox-web', mode: 'search', screenshot: 1 },
    { platform: 'sandbox', mode: 'search', screenshot: 1 },
  ];
  const tasks = await Promise.all(
    [['310100'], ['110100']].map((regionCode) =>
      c.submit({ prompts: ['egress one', 'egress two'], platforms, regionCode }),
    ),
  );
  for (const result of await Promise.all(tasks.map((id) => c.finished(id)))) {
    t.equal(result.status, 'completed');
    for (const sub of result.subTaskList) t.ok(sub.pageScreenshot, `${sub.platform}: screenshot`);
  }
  // Chromium's own requests trail the pages (sign-in, autofill, updates): give them time to show.
  await new Promise((r) => setTimeout(r, 3000));

  const sandboxTarget = `${new URL(c.sandbox.url).hostname}:${new URL(c.sandbox.url).port}`;
  const seen = [sh1!, sh2!, bj!].flatMap((p) => p.requests);
  // Chromium sends plain http through a proxy as absolute-URI requests (the port checks CONNECT):
  // each web sub task of this test loads the chat page and posts the prompt.
  const pageRequests = seen.filter((r) => r.method !== 'CONNECT' && r.target === sandboxTarget);
  t.ok(pageRequests.length >= 8, `the web work went through the proxies (${pageRequests.length})`);
  const foreign = seen.filter((r) => r.target !== sandboxTarget);
  const perHost: { [target: string]: number } = {};
  for (const r of foreign) perHost[r.target] = (perHost[r.target] ?? 0) + 1;
  t.same(perHost, {}, "every host the proxies carried to is the platform's own");
  t.equal(foreign.length, 0, 'foreign requests through the regional proxies');
});

t.test('a stopped proxy turns inactive, refuses its region, and comes back', async (t) => {
  await bj!.stop();
  await until('the Beijing port inactive', async () =>
    (await activeOf(BJ)) === false ? true : undefined,
  );
  const tasks = (await c.db()).collection('tasks');
  const before = await tasks.countDocuments();
  const res = await c.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: ['x'],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
      regionCode: ['110000'],
    },
    c.token,
  );
  t.equal(res.status, 400);
  t.match(res.body.message, /region 110000 has no active proxy port/);
  t.equal(await tasks.countDocuments(), before, 'nothing stored');
  await bj!.start();
  await until('the Beijing port active again', async () =>
    (await activeOf(BJ)) === true ? true : undefined,
  );
});

t.test('bad region codes are refused with 400 and nothing stored', async (t) => {
  const tasks = (await c.db()).collection('tasks');
  const before = await tasks.countDocuments();
  for (const [regionCode, pattern] of [
    [[], /exactly one region code/],
    [['310100', '110100'], /exactly one region code/],
    [[310100], /must be a string/],
    ['310100', /array/],
    [['440100'], /440100 is not a region any proxy port serves now/],
  ] as const) {
    const res = await c.client.post(
      `${M}/task/batch/shared`,
      { prompts: ['x'], platforms: [{ platform: 'sandbox', mode: 'standard' }], regionCode },
      c.token,
    );
    t.equal(res.status, 400, JSON.stringify(regionCode));
    t.match(JSON.stringify(res.body), pattern, JSON.stringify(regionCode));
  }
  t.equal(await tasks.countDocuments(), before, 'nothing stored');
});

t.test('a region whose only node dies waits, then fails naming it; others complete', async (t) => {
  const bjTask = await c.submit({
    prompts: ['bj slow #latency:4000', 'bj slow two #latency:4000'],
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
    regionCode: ['110000'],
  });
  const conn = await c.db();
  await until('Beijing work in progress', async () =>
    (await conn.collection('subtasks').countDocuments({ taskId: bjTask, status: 'processing' })) > 0
      ? true
      : undefined,
  );
  c.nodes.get('crawler-2')!.child.kill('SIGKILL');
  const shTask = await c.submit({
    prompts: ['sh after'],
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
    regionCode: ['310000'],
  });
  const [bjr, sh] = await Promise.all([c.finished(bjTask), c.finished(shTask)]);
  t.equal(sh.status, 'completed', 'Shanghai still runs');
  t.equal(bjr.status, 'failed');
  for (const sub of bjr.subTaskList) {
    t.equal(sub.status, 'failed');
    t.match(sub.errorMessage, /region 110000/);
  }
});

t.test(
  'a platform that does not serve mainland China: refused in a region, direct without one',
  async (t) => {
    const refused = await c.client.post(
      `${M}/task/batch/shared`,
      {
        prompts: ['p'],
        platforms: [{ platform: 'chatgpt', mode: 'standard' }],
        regionCode: ['310100'],
      },
      c.token,
    );
    t.equal(refused.status, 400);
    t.match(refused.text, /ChatGPT does not serve mainland China, where region 310100 is/);

    const taskId = await c.submit({
      prompts: ['no region'],
      platforms: [
        { platform: 'chatgpt', mode: 'standard' },
        { platform: 'deepseek', mode: 'standard' },
      ],
    });
    const result = await c.finished(taskId);
    t.equal(result.status, 'completed');
    const sub = (p: string) => result.subTaskList.find((s) => s.platform === p)!;
    t.equal(sub('chatgpt').proxyIp, null, 'ChatGPT: no region port');
    t.ok([...SH, BJ].includes(sub('deepseek').proxyIp!), 'DeepSeek: through a region port');
    const from = (p: string) => vendors.get(p)!.server.requests.map((r) => r.remoteAddress);
    t.same([...new Set(from('chatgpt'))], ['127.0.0.1'], "ChatGPT's requests left from the node");
    t.ok(
      from('deepseek').every((ip) => [...SH, BJ].includes(ip)),
      "DeepSeek's through the ports",
    );
  },
);
