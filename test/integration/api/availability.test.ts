/**
 * Availability is one rule (services/shared/availability.ts) read by every
 * client: a (platform, channel) pair is available when a live crawler node
 * runs it and, on a real site's web channel, an account in working order is
 * in a region the request can use. GET /platforms says so per channel, a
 * submission to an unavailable pair is a 400 with the same reason that stores
 * nothing, and `aimon platforms` prints the same verdict. The embedded
 * default (one process, one crawler node) offers the simulated platforms and
 * only the vendors it holds an API key for. Without any crawler node (api-only
 * nodes, a cluster still starting) what runs is unknown and submissions wait.
 */
import t, { type Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { startSandboxServer } from '../../../sandbox/server.js';
import {
  envelopeOf,
  errorEnvelopeSchema,
  platformsDataSchema,
} from '../../../services/shared/contracts/http.js';
import { aimon } from '../../helpers/aimon.js';
import { snapshotCounts, startEmbedded, type Embedded } from '../../helpers/cluster.js';
import { startForwardProxy } from '../../helpers/forward-proxy.js';
import { addDeepseekAccount } from '../../helpers/deepseek-account.js';
import { until } from '../../helpers/wait.js';

const M = '/api/business/monitor';
const SH = '310100';
const sandbox = await startSandboxServer({ latencyMs: 10 });
const proxy = await startForwardProxy('127.0.0.1');
t.teardown(async () => {
  await sandbox.close();
  await proxy.stop();
});

const catalogue = async (svc: Embedded, token: string, regionCode?: string) => {
  const query = regionCode === undefined ? '' : `?regionCode=${regionCode}`;
  const res = await svc.client.get(`${M}/platforms${query}`, token);
  t.equal(res.status, 200, res.text);
  return envelopeOf(platformsDataSchema).parse(res.body).data;
};

const availability = async (svc: Embedded, token: string) =>
  Object.fromEntries((await catalogue(svc, token)).map((p) => [p.platform, p.available]));

/** The embedded default with a crawler node that holds a DeepSeek API key. */
const withDeepseekKey = (t: Test, env: Record<string, string> = {}) =>
  startEmbedded(t, {
    SERVICES: 'all',
    SANDBOX_URL: sandbox.url,
    DEEPSEEK_API_KEY: 'sk-test',
    DEEPSEEK_BASE_URL: 'http://127.0.0.1:9/',
    ...env,
  });

/**
 * Shared by the cases that need no other configuration: a Shanghai proxy port,
 * the accounts service with its key, and DeepSeek's site on a closed loopback
 * port (no case lets a DeepSeek web sub task run, but none could leave the machine).
 */
const svc = await withDeepseekKey(t, {
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
  DEEPSEEK_WEB_URL: 'http://127.0.0.1:9/',
  CRAWLER_PROXIES: JSON.stringify([
    { port: proxy.port, url: proxy.url, regionCode: SH, outIp: '127.0.0.1' },
  ]),
  PROXY_CHECK_URL: `${sandbox.url}/ip`,
  PROXY_CHECK_MS: '300',
});
const user = await svc.newUser();

/** Submits one prompt to these platforms; expects a 400 naming only the second one's platform. */
async function refusedSecond(
  t: Test,
  svc: Embedded,
  token: string,
  platforms: { platform: string; mode: string; channel?: string }[],
  regionCode?: string,
): Promise<string> {
  const conn = await svc.db();
  const before = await snapshotCounts(conn);
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: ['p'], platforms, ...(regionCode ? { regionCode: [regionCode] } : {}) },
    token,
  );
  t.equal(res.status, 400);
  const body = errorEnvelopeSchema.parse(res.body);
  t.same(
    body.errors!.map((e) => e.field),
    ['platforms[1].platform'],
  );
  t.same(await snapshotCounts(conn), before, 'nothing stored');
  return body.errors![0]!.message;
}
t.test('with a crawler node: sandboxes and credentialed vendors only', async (t) => {
  const a = await availability(svc, user.token);
  t.match(a, { sandbox: true, 'sandbox-web': true, 'sandbox-cn': true, deepseek: true });
  t.match(a, { chatgpt: false, claude: false, wenxin: false });

  const message = await refusedSecond(t, svc, user.token, [
    { platform: 'sandbox', mode: 'standard' },
    { platform: 'openai', mode: 'search' },
    { platform: 'deepseek', mode: 'reasoning' },
  ]);
  t.match(message, /^chatgpt is unavailable on the api channel: no live crawler node runs it/);
});

/** The verdict on DeepSeek's site, from GET /platforms. */
const deepseekWeb = async (regionCode?: string) =>
  (await catalogue(svc, user.token, regionCode)).find((p) => p.platform === 'deepseek')!
    .availability.web!;

const addAccount = (label: string, regionCode: string | null) =>
  addDeepseekAccount(svc.broker, label, regionCode);

const SANDBOX_FIRST = { platform: 'sandbox', mode: 'standard' };
const SITE = { platform: 'deepseek', mode: 'search', channel: 'web' };

t.test('a web pair needs a usable account, in the region the request names', async (t) => {
  const env = { AIMON_URL: svc.client.baseUrl, AIMON_API_KEY: user.apiKey };
  /** DeepSeek's two table lines, one per channel. */
  const deepseekRows = (stdout: string) => {
    const lines = stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('│ deepseek '));
    return lines.slice(at, at + 2);
  };

  t.same(await deepseekWeb(), {
    available: false,
    missing: ['account'],
    reason: 'no usable account',
  });
  t.match(
    await refusedSecond(t, svc, user.token, [SANDBOX_FIRST, SITE]),
    /^deepseek is unavailable on the web channel: no usable account \(an operator adds one: `npm run admin -- account add`\); available: .*deepseek \(api\)/,
    'the 400 names the missing account, as GET /platforms does',
  );
  const cli = await aimon(['platforms'], env);
  t.equal(cli.code, 0, cli.stderr);
  const [apiLine, webLine] = deepseekRows(cli.stdout);
  t.match(apiLine, /│ api: yes\s+│$/);
  t.match(webLine, /│ web: no \(no usable account\)\s+│$/, '`aimon platforms` prints the verdict');

  await addAccount('anywhere', null);
  t.same(
    await deepseekWeb(),
    { available: true, missing: [], reason: null },
    'an account: available',
  );

  // The region is refused for its own reason until its port is heard active.
  await until('the Shanghai port to be active', async () => {
    const res = await svc.client.get('/api/business/eip-edge/ports/city-info');
    const records = res.body.data as { regionCode: string[]; active: boolean }[];
    return records.some((r) => r.active && r.regionCode.includes(SH)) ? true : undefined;
  });
  const inShanghai = `no usable account in region ${SH} (usable ones: without region)`;
  t.same(await deepseekWeb(SH), { available: false, missing: ['account'], reason: inShanghai });
  t.match(
    await refusedSecond(t, svc, user.token, [SANDBOX_FIRST, SITE], SH),
    `deepseek is unavailable on the web channel: ${inShanghai} (`,
    'an account without region does not serve a request for a region',
  );
  const regional = await aimon(['platforms', '--region', SH], env);
  t.match(deepseekRows(regional.stdout)[1], `│ web: no (${inShanghai})`);

  await addAccount('shanghai', SH);
  t.same(await deepseekWeb(SH), { available: true, missing: [], reason: null });
  const ok = await aimon(['platforms', '--region', SH], env);
  t.match(deepseekRows(ok.stdout)[1], /│ web: yes\s+│$/);

  const bad = await svc.client.get(`${M}/platforms?regionCode=shanghai`, user.token);
  t.equal(bad.status, 400);
  t.same(errorEnvelopeSchema.parse(bad.body).errors, [
    { field: 'regionCode', message: 'must be an administrative division code (2 to 12 digits)' },
  ]);
});

t.test('a platform whose chosen channel no node runs is refused', async (t) => {
  const svc = await withDeepseekKey(t, {
    PLATFORM_CHANNELS: 'deepseek=web',
    CRAWLER_CHANNELS: 'api',
  });
  const user = await svc.newUser();
  t.match(await availability(svc, user.token), { deepseek: false, sandbox: true });
  t.match(
    (await catalogue(svc, user.token)).find((p) => p.platform === 'deepseek'),
    {
      channel: 'web',
      defaultChannel: 'api',
      modes: ['standard', 'reasoning', 'search', 'reasoning_search'],
      available: false,
      availability: {
        api: { available: true },
        web: { available: false, missing: ['node', 'account'] },
      },
    },
    "the operator's channel is the active one; its API still runs when named",
  );
  const before = await svc.client.get(`${M}/task/list?page=1&size=10`, user.token);
  const message = await refusedSecond(t, svc, user.token, [
    { platform: 'sandbox', mode: 'standard' },
    { platform: 'deepseek', mode: 'reasoning' },
  ]);
  t.match(message, /^deepseek is unavailable on the web channel: no live crawler node runs it/);
  const after = await svc.client.get(`${M}/task/list?page=1&size=10`, user.token);
  t.same(after.body.data, before.body.data, 'nothing stored');
  const named = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: ['p'], platforms: [{ platform: 'deepseek', mode: 'reasoning', channel: 'api' }] },
    user.token,
  );
  t.equal(named.status, 200, 'the API pair, named, runs');
});

t.test('without a crawler node availability is unknown and submissions wait', async (t) => {
  const svc = await startEmbedded(t);
  const user = await svc.newUser();
  const a = await availability(svc, user.token);
  t.equal(a.chatgpt, null);
  t.equal(a.sandbox, null);
  t.same(
    (await catalogue(svc, user.token)).find((p) => p.platform === 'deepseek')!.availability,
    {
      api: {
        available: null,
        missing: [],
        reason: 'no crawler node is up yet: submitted work waits',
      },
      web: { available: false, missing: ['account'], reason: 'no usable account' },
    },
    'no accounts service here: no account, whatever nodes come',
  );
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: ['p'], platforms: [{ platform: 'chatgpt', mode: 'search' }] },
    user.token,
  );
  t.equal(res.status, 200);
});
