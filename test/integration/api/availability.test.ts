/**
 * Platform availability comes from the live crawler nodes' adverts: the
 * embedded default (one process, one crawler node) offers the simulated
 * platforms and only the vendors it holds an API key for; submitting to any
 * other is a 400 that says so. Without any crawler node (api-only nodes, a
 * cluster still starting) availability is unknown and submissions wait.
 */
import t, { type Test } from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { errorEnvelopeSchema } from '../../../services/api/contract.js';
import { startEmbedded, type Embedded } from '../../helpers/cluster.js';

const M = '/api/business/monitor';
const sandbox = await startSandboxServer({ latencyMs: 10 });
t.teardown(() => sandbox.close());

const availability = async (svc: Awaited<ReturnType<typeof startEmbedded>>, token: string) => {
  const res = await svc.client.get(`${M}/platforms`, token);
  return Object.fromEntries(
    (res.body.data as { platform: string; available: boolean | null }[]).map((p) => [
      p.platform,
      p.available,
    ]),
  );
};

/** The embedded default with a crawler node that holds a DeepSeek API key. */
const withDeepseekKey = (t: Test, env: Record<string, string> = {}) =>
  startEmbedded(t, {
    SERVICES: 'all',
    SANDBOX_URL: sandbox.url,
    DEEPSEEK_API_KEY: 'sk-test',
    DEEPSEEK_BASE_URL: 'http://127.0.0.1:9/',
    ...env,
  });

/** Submits one prompt to these platforms; expects a 400 naming only the second one's platform. */
async function refusedSecond(
  t: Test,
  svc: Embedded,
  token: string,
  platforms: { platform: string; mode: string }[],
): Promise<string> {
  const res = await svc.client.post(`${M}/task/batch/shared`, { prompts: ['p'], platforms }, token);
  t.equal(res.status, 400);
  const body = errorEnvelopeSchema.parse(res.body);
  t.same(
    body.errors!.map((e) => e.field),
    ['platforms[1].platform'],
  );
  return body.errors![0]!.message;
}

t.test('with a crawler node: sandboxes and credentialed vendors only', async (t) => {
  const svc = await withDeepseekKey(t);
  const user = await svc.newUser();
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

t.test('a platform whose chosen channel no node runs is refused', async (t) => {
  const svc = await withDeepseekKey(t, {
    PLATFORM_CHANNELS: 'deepseek=web',
    CRAWLER_CHANNELS: 'api',
  });
  const user = await svc.newUser();
  t.match(await availability(svc, user.token), { deepseek: false, sandbox: true });
  const listed = await svc.client.get(`${M}/platforms`, user.token);
  t.match(
    (listed.body.data as { platform: string }[]).find((p) => p.platform === 'deepseek'),
    {
      channel: 'web',
      defaultChannel: 'api',
      modes: ['standard', 'reasoning', 'search', 'reasoning_search'],
      available: false,
      availableChannels: ['api'],
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
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts: ['p'], platforms: [{ platform: 'chatgpt', mode: 'search' }] },
    user.token,
  );
  t.equal(res.status, 200);
});
