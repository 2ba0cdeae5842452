/**
 * Metrics after a batch: the api's `/metrics` business figures (sub tasks by
 * platform, channel and status; the answer time histogram; queue and leases;
 * callback attempts by outcome; proxy ports; accounts) and Moleculer's own
 * Prometheus reporter on the node's METRICS_PORT, on loopback.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { startForwardProxy } from '../../helpers/forward-proxy.js';
import { freePort, startReceiver } from '../../../bench/webhook-receiver.js';
import { until } from '../../helpers/wait.js';

const M = '/api/business/monitor';

/** The samples of a Prometheus text exposition: `name{labels}` → value. */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const sandbox = await startSandboxServer({ latencyMs: 30 });
const receiver = await startReceiver();
const exit = await startForwardProxy('127.0.0.1');
t.teardown(async () => {
  await Promise.all([sandbox.close(), receiver.close(), exit.stop()]);
});
const metricsPort = await freePort();
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '4',
  CRAWLER_PROXIES: JSON.stringify([
    { port: exit.port, url: exit.url, regionCode: '310100', outIp: '203.0.113.7' },
  ]),
  CALLBACK_RETRY_DELAYS_MS: '100,100',
  CALLBACK_POLL_MS: '20',
  CALLBACK_ALLOW_CIDRS: '127.0.0.0/8',
  METRICS_PORT: String(metricsPort),
  METRICS_CACHE_MS: '0',
  RETRY_BASE_MS: '20',
  RETRY_MAX_MS: '40',
  MAX_ATTEMPTS: '1',
});
const user = await svc.newUser();

t.test('the business figures after a batch', async (t) => {
  const callbackUrl = receiver.plan('/hook', ['500', 'ok']);
  const submitted = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: ['alpha', 'beta', 'gamma #fail:401'],
      platforms: [
        { platform: 'sandbox', mode: 'standard' },
        { platform: 'sandbox-cn', mode: 'search' },
      ],
      callbackUrl,
    },
    user.token,
  );
  t.equal(submitted.status, 200, submitted.text);
  await until('both callback attempts', async () => receiver.requestsTo('/hook').length >= 2);

  const res = await until('the delivered attempt is counted', async () => {
    const r = await fetch(`${svc.client.baseUrl}/metrics`);
    const text = await r.text();
    return /aimon_callback_attempts\{outcome="delivered"\} 1/.test(text) ? { r, text } : false;
  });
  t.match(res.r.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  const m = parse(res.text);
  const s = (key: string) => m.get(key);

  t.equal(s('aimon_subtasks{platform="sandbox",channel="api",status="completed"}'), 2);
  t.equal(
    s('aimon_subtasks{platform="sandbox",channel="api",status="error"}'),
    1,
    'the refused prompt (401) is an error',
  );
  t.equal(s('aimon_subtasks{platform="sandbox-cn",channel="api",status="completed"}'), 2);
  t.equal(s('aimon_queue_depth'), 0);
  t.equal(s('aimon_running_leases'), 0);

  const bucket = (le: string) =>
    s(`aimon_answer_seconds_bucket{platform="sandbox",channel="api",le="${le}"}`);
  t.equal(s('aimon_answer_seconds_count{platform="sandbox",channel="api"}'), 2);
  t.equal(bucket('+Inf'), 2, 'every completed answer is in the +Inf bucket');
  t.equal(bucket('5'), 2, 'sandbox answers take well under 5 s');
  const sum = s('aimon_answer_seconds_sum{platform="sandbox",channel="api"}')!;
  t.ok(sum >= 0.06 && sum < 10, `the sum is the answers' time (${sum} s, latency 30 ms each)`);

  t.equal(s('aimon_callback_attempts{outcome="http_error"}'), 1, 'the 500');
  t.equal(s('aimon_callback_attempts{outcome="delivered"}'), 1);
  t.equal(s('aimon_callback_deliveries{status="SUCCEEDED"}'), 1);
  t.equal(
    s('aimon_proxy_ports{province="上海市",city="上海市",state="active"}') ??
      s('aimon_proxy_ports{province="上海市",city="市辖区",state="active"}'),
    1,
    `the node's port; got ${[...m.keys()].filter((k) => k.startsWith('aimon_proxy')).join(', ')}`,
  );
  t.equal(
    s(`aimon_crawler_capacity{node="${svc.config.nodeId}",region="310000,310100"}`),
    4,
    'its regions: the province and the city',
  );
  for (const source of ['tasks', 'callbacks', 'crawlers', 'accounts']) {
    t.equal(s(`aimon_figures_up{source="${source}"}`), 1, `${source} answered`);
  }
});

t.test(
  "Moleculer's Prometheus reporter listens on the node's metrics port, on loopback",
  async (t) => {
    const text = await until('the reporter serves', async () => {
      const r = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).catch(() => undefined);
      return r?.status === 200 ? r.text() : false;
    });
    t.match(text, /# TYPE moleculer_request_total counter/);
    const submits = text
      .split('\n')
      .filter(
        (l) => l.startsWith('moleculer_request_total{') && l.includes('action="tasks.submit"'),
      );
    t.equal(submits.length, 1, 'the submit call is counted');
    t.match(submits[0], `nodeID="${svc.config.nodeId}"`, 'with the node id');
    t.match(submits[0], / 1$/);
    t.match(text, /process_/, 'process figures too');
    const other = await fetch(`http://127.0.0.2:${metricsPort}/metrics`).then(
      () => 'answered',
      () => 'refused',
    );
    t.equal(other, 'refused', 'bound to HOST (127.0.0.1) only, not to every interface');
  },
);
