/**
 * The API–web gap of a monitor asking ChatGPT on both channels (issue 32),
 * against the real service: the service's roles in this process and a crawler
 * node as a broker of its own, the two speaking over the real NATS server,
 * over the real MongoDB-wire server; the API channel asks the OpenAI stand-in,
 * the web channel drives the ChatGPT replica in real Chromium with an
 * imported account. The two answer differently, so the gap is known: the
 * stand-in names 阿克米 in every answer, the replica only when the prompt does
 * (its answer repeats the prompt's topic). Prompt 0 names it (gap 0), prompt 1
 * does not (gap +1, 3 of 3 against 0 of 3). After two runs:
 * - the trends (REST) hold a gap series per prompt, one point per run, with
 *   Newcombe's interval and both rates with their n;
 * - the MCP tool `monitor_trends` returns the same series, its summary names
 *   each gap with its interval;
 * - the dashboard's monitor page, in real Chromium, draws the gap of the chosen
 *   prompt with its band and writes the latest gap with its interval and both
 *   rates, "API minus web" as the trends define it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { createBroker } from '../../../services/index.js';
import { trendsSchema, type GapSeries } from '../../../services/shared/contracts/monitor-trends.js';
import { startChatgptReplica } from '../../../replicas/chatgpt/server.js';
import { startPlatformStandins, standinEnv } from '../../standins/index.js';
import { testBrowser } from '../../helpers/chromium.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { natsUrl, uniqueDbName } from '../../helpers/servers.js';
import { until } from '../../helpers/wait.js';
import { ensureDashboardBuilt, openPage, snapBoth } from '../../helpers/web-ui.js';

t.setTimeout(300_000);

const M = '/api/business/monitor';
const BRAND = '阿克米';
/** Prompt 0 names the brand, so the replica's answer does too; prompt 1 does not. */
const PROMPTS = [`${BRAND} CRM 值得买吗`, '中小企业 CRM 推荐'];
const SAMPLES = 3;

const [api] = (await startPlatformStandins(['chatgpt'])).values();
const replica = await startChatgptReplica({ latencyMs: 2, drift: 'none' });
await ensureDashboardBuilt();
const browser = await testBrowser(t, api!.server, replica);

const namespace = uniqueDbName('gap');
const svc = await startEmbedded(t, {
  SERVICES: 'api,tasks,users,scheduler,callbacks,proxies,accounts,monitors',
  TRANSPORTER: natsUrl(),
  NAMESPACE: namespace,
  ...standinEnv(new Map([['chatgpt', api!]])),
  CHATGPT_WEB_URL: replica.url,
  CHATGPT_WEB_GAP_MS: '0',
  WEB_GAP_JITTER: '0',
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
});
// The crawler node: its own broker, reached by the others only through NATS.
const crawler = await createBroker({ ...svc.config, nodeId: `${namespace}-crawler` }, ['crawler']);
await crawler.start();
t.teardown(() => crawler.stop());

const user = await svc.newUser('gap');
await svc.broker.call('accounts.import', {
  platform: 'chatgpt',
  label: 'replica',
  storageState: replica.storageState(),
});

type Verdict = { available: boolean | null };
await until('ChatGPT available on both channels', async () => {
  const res = await svc.client.get(`${M}/platforms`, user.token);
  const list = res.body.data as { platform: string; availability: Record<string, Verdict> }[];
  const { api, web } = list.find((p) => p.platform === 'chatgpt')!.availability;
  return api?.available === true && web?.available === true;
});

/** Wilson 95 % bounds of 3 of 3 and 0 of 3, worked by hand: z = 1.96, z² = 3.8415. */
const ALL_OF_3 = { value: 1, lower: 0.4385, upper: 1, n: SAMPLES };
const NONE_OF_3 = { value: 0, lower: 0, upper: 0.5615, n: SAMPLES };
/** Newcombe's hybrid score interval of their difference: d ∓ √((p₁−l₁)² + (u₂−p₂)²) … */
const GAP_0 = { value: 0, lower: -0.5615, upper: 0.5615 };
const GAP_1 = { value: 1, lower: 1 - Math.SQRT2 * 0.5615, upper: 1 };

/** The same rates as the dashboard and the MCP summary write them. */
const ALL = '100% (43.9–100%, n = 3)';
const NONE = '0% (0–56.1%, n = 3)';

const round4 = (x: number | null) => (x === null ? null : Math.round(x * 1e4) / 1e4);
const rounded = <T extends Record<string, number | null>>(o: T) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round4(v)]));

/** Each gap series as prompt, platform, keyword and its points' rates and gap, rounded. */
const figures = (gaps: readonly GapSeries[]) =>
  gaps.map((g) => ({
    prompt: g.prompt,
    platform: g.platform,
    keyword: g.keyword,
    points: g.points.map((p) => ({
      api: rounded(p.api),
      web: rounded(p.web),
      gap: rounded(p.gap),
    })),
  }));

const expected = (runs: number) => [
  {
    prompt: 0,
    platform: 'chatgpt',
    keyword: BRAND,
    points: Array.from({ length: runs }, () => ({ api: ALL_OF_3, web: ALL_OF_3, gap: GAP_0 })),
  },
  {
    prompt: 1,
    platform: 'chatgpt',
    keyword: BRAND,
    points: Array.from({ length: runs }, () => ({
      api: ALL_OF_3,
      web: NONE_OF_3,
      gap: rounded(GAP_1),
    })),
  },
];

let monitorId = '';

t.test('two runs on both channels: the trends hold the gap with its interval', async (t) => {
  const created = await svc.client.post(
    `${M}/monitors`,
    {
      name: 'CRM on both channels',
      prompts: PROMPTS,
      platforms: [
        { platform: 'chatgpt', channel: 'api', mode: 'standard' },
        { platform: 'chatgpt', channel: 'web', mode: 'standard' },
      ],
      monitorKeywords: BRAND,
      samples: SAMPLES,
      schedule: { cron: '0 9 * * *', timezone: 'UTC' },
      enabled: false,
    },
    user.token,
  );
  t.equal(created.status, 200, created.status === 200 ? 'created' : created.text);
  monitorId = created.body.data.monitorId as string;
  for (let run = 1; run <= 2; run++) {
    const started = await svc.client.post(`${M}/monitors/${monitorId}/run`, {}, user.token);
    t.equal(started.status, 200, started.status === 200 ? `run ${run} started` : started.text);
    await until(
      `run ${run} to finish`,
      async () => {
        const res = await svc.client.get(`${M}/monitors/${monitorId}/runs`, user.token);
        const runs = res.body.data.runs as { status: string }[];
        if (runs.some((r) => r.status === 'failed')) throw new Error(res.text);
        return runs.filter((r) => r.status === 'finished').length === run;
      },
      // A bound, not a timing check: six web asks a run, one account, on a loaded machine.
      120_000,
      200,
    );
  }
  // Every sample answered on its own channel: the replica saw each web ask, in standard mode.
  t.equal(replica.asked.length, 2 * PROMPTS.length * SAMPLES, 'the web asks reached the replica');

  const res = await svc.client.get(`${M}/monitors/${monitorId}/trends`, user.token);
  t.equal(res.status, 200, res.status === 200 ? 'the trends' : res.text);
  const trends = trendsSchema.parse(res.body.data);
  t.strictSame(figures(trends.channelGap), expected(2), 'per prompt: both rates, the gap, n');
  t.ok(trends.channelGap[1]!.points[0]!.gap.lower! > 0, 'prompt 1: the web names it less, surely');
});

t.test('over MCP: monitor_trends returns the same gap and names it', async (t) => {
  const client = new Client({ name: 'gap-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${svc.client.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${user.token}` } },
    }),
  );
  t.teardown(() => client.close());
  const r = (await client.callTool({
    name: 'monitor_trends',
    arguments: { monitorId },
  })) as CallToolResult;
  const summary = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  t.notOk(r.isError, summary);
  const data = trendsSchema.parse(r.structuredContent);
  t.strictSame(figures(data.channelGap), expected(2), 'the figures the REST route gave');
  const prompt0 = `chatgpt, prompt 0, ${BRAND}: 0 pp (−56.1 to +56.1) · API ${ALL} · web ${ALL}`;
  const prompt1 = `chatgpt, prompt 1, ${BRAND}: +100 pp (+20.6 to +100) · API ${ALL} · web ${NONE}`;
  t.match(
    summary,
    /, 2 API–web gap series \(definitions v\d+\); newest run's API − web: /,
    'counts the gap series',
  );
  t.ok(summary.endsWith(`${prompt0}; ${prompt1}`), 'names each gap with its interval and rates');
});

t.test('the dashboard draws the gap and writes it with its interval', async (t) => {
  const { page, problems } = await openPage(browser, svc.client.baseUrl);
  await page.goto('/signin');
  await page.fill('input[name=apiKey]', user.apiKey);
  await page.click('button[type=submit]');
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto(`/monitors/${monitorId}`);
  const section = page.getByTestId('compare-prompt');
  await section.getByTestId('chart-gap').locator('canvas').waitFor({ timeout: 15_000 });
  t.equal(
    await section.getByTestId('chart-gap').locator('figcaption').textContent(),
    'API–web gap: API minus web mention rate (percentage points)',
  );
  t.strictSame(
    await section.getByTestId('latest-gaps').locator('li').allTextContents(),
    [`chatgpt: 0 pp (−56.1 to +56.1) · API ${ALL} · web ${ALL}`],
    'prompt 0: no gap, with its interval',
  );
  await page.selectOption('select[name=prompt]', '1');
  await section
    .getByTestId('latest-gaps')
    .filter({ hasText: '+100 pp' })
    .waitFor({ timeout: 5_000 });
  t.strictSame(
    await section.getByTestId('latest-gaps').locator('li').allTextContents(),
    [`chatgpt: +100 pp (+20.6 to +100) · API ${ALL} · web ${NONE}`],
    'prompt 1: the API names it, the web does not',
  );
  const found = await snapBoth(page, 'monitor-channel-gap');
  for (const [width, list] of Object.entries(found)) t.same(list, [], `no overflow at ${width} px`);
  t.same(problems, [], 'no script errors or CSP refusals');
});
