/**
 * `aimon regions` reads the public city lookup (no API key) of a service
 * whose crawler node has two proxy ports, Shanghai (a working forward proxy)
 * and Beijing (nothing listening), and filters it; a submission with
 * `--region` then runs through the Shanghai port.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { aimon } from '../../helpers/aimon.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { startForwardProxy } from '../../helpers/forward-proxy.js';
import { freePort } from '../../../bench/webhook-receiver.js';
import { until } from '../../helpers/wait.js';

const sandbox = await startSandboxServer({ latencyMs: 40 });
t.teardown(() => sandbox.close());
const proxy = await startForwardProxy('127.0.0.1');
t.teardown(() => proxy.stop());
const deadPort = await freePort();
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  PROXY_CHECK_MS: '300',
  CRAWLER_PROXIES: JSON.stringify([
    { port: proxy.port, url: proxy.url, regionCode: '310100', outIp: '203.0.113.7' },
    {
      port: deadPort,
      url: `http://127.0.0.1:${deadPort}`,
      regionCode: '110000',
      outIp: '203.0.113.8',
    },
  ]),
});
const user = await svc.newUser();
const url = svc.client.baseUrl;
await until('both ports checked', async () => {
  const res = await svc.client.get('/api/business/eip-edge/ports/city-info');
  const ports = res.body.data as { active: boolean }[];
  return ports.length === 2 && ports.some((p) => p.active);
});

t.test('regions: one row per region, filtered by code prefix or name, no key needed', async (t) => {
  const [all, shanghai, byCode, none, json] = await Promise.all([
    aimon(['regions'], { AIMON_URL: url }),
    aimon(['regions', '上海'], { AIMON_URL: url }),
    aimon(['regions', '11'], { AIMON_URL: url }),
    aimon(['regions', 'atlantis'], { AIMON_URL: url }),
    aimon(['regions', '--json'], { AIMON_URL: url }),
  ]);
  t.equal(all.code, 0, 'exit 0', { stderr: all.stderr });
  t.match(
    all.stdout,
    new RegExp(`│ 310100\\s+│ 上海市\\s+│ 上海市\\s+│ ${proxy.port}\\s+│ yes\\s+│ 203.0.113.7 │`),
  );
  t.match(
    all.stdout,
    new RegExp(`│ 110000\\s+│ 北京市\\s+│ 北京市\\s+│ ${deadPort}\\s+│ no\\s+│ 203.0.113.8 │`),
  );
  t.match(shanghai.stdout, '310100');
  t.notMatch(shanghai.stdout, '110000');
  t.match(byCode.stdout, '110000');
  t.notMatch(byCode.stdout, '310100');
  t.equal(none.code, 0);
  t.match(none.stderr, 'no region matches "atlantis"');
  const records = JSON.parse(json.stdout) as { regionCode: string[]; active: boolean }[];
  t.same(
    records.map((r) => [r.regionCode, r.active]),
    [
      [['110000'], false],
      [['310000', '310100'], true],
    ],
  );
});

t.test('submit --region runs the batch through that region', async (t) => {
  const run = await aimon(
    ['submit', 'from Shanghai', '-p', 'sandbox', '--region', '310100', '--wait'],
    {
      AIMON_URL: url,
      AIMON_API_KEY: user.apiKey,
    },
  );
  t.equal(run.code, 0, 'exit 0', { stderr: run.stderr });
  const taskId = run.stdout.split('\n')[0]!;
  const result = await svc.client.get(`/api/business/monitor/task/result/${taskId}`, user.token);
  t.equal(result.body.data.subTaskList[0].proxyIp, '203.0.113.7', 'through the Shanghai port');
  t.ok(proxy.requests.length > 0, 'the forward proxy carried it');

  const refused = await aimon(['submit', 'x', '-p', 'sandbox', '--region', '110000'], {
    AIMON_URL: url,
    AIMON_API_KEY: user.apiKey,
  });
  t.equal(refused.code, 1, 'a region without an active port is refused');
  t.match(refused.stderr, /- regionCode\[0\]: region 110000 has no active proxy port now/);
});
