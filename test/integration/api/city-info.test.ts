/**
 * The public city lookup over a real cluster: api + proxies on one broker,
 * stand-in crawler nodes on others, all over the test NATS server. Resyncs
 * are set far apart unless a test is about them, so a change seen at once
 * came from the `proxies.health` event or the node leaving.
 */
import t from 'tap';
import {
  cityInfoDataSchema,
  envelopeOf,
  errorEnvelopeSchema,
} from '../../../services/shared/contracts/http.js';
import { divisionNames, regionCodesOf } from '../../../services/shared/divisions.js';
import type { CityInfoRecord } from '../../../services/shared/proxy-ports.js';
import { startEmbedded, type TapLike } from '../../helpers/cluster.js';
import { portHealth, startCrawlerPortsNode } from '../../helpers/crawler-ports.js';
import { natsUrl, uniqueDbName } from '../../helpers/servers.js';
import { until } from '../../helpers/wait.js';

const CITY_INFO = '/api/business/eip-edge/ports/city-info';

const where = (code: string) => ({ ...divisionNames(code)!, regionCode: regionCodesOf(code)! });
const BJ = where('110100');
const SH = where('310100');
const GD = where('440000');
const SZ = where('440300');

async function registryCluster(t: TapLike, env: Record<string, string> = {}) {
  const namespace = uniqueDbName(t.name);
  const svc = await startEmbedded(t, {
    SERVICES: 'api,proxies',
    TRANSPORTER: natsUrl(),
    NAMESPACE: namespace,
    PROXY_RESYNC_MS: '600000',
    ...env,
  });
  const cityInfo = async (query = ''): Promise<CityInfoRecord[]> => {
    const res = await svc.client.get(`${CITY_INFO}${query}`);
    if (res.status !== 200) throw new Error(`city-info answered ${res.status}: ${res.text}`);
    return envelopeOf(cityInfoDataSchema).parse(res.body).data;
  };
  const crawler = (nodeID: string, ports: ReturnType<typeof portHealth>[]) =>
    startCrawlerPortsNode(t, { transporter: natsUrl(), namespace, nodeID, ports });
  return { svc, cityInfo, crawler };
}

/** Waits briefly (events, not resyncs) for the lookup to satisfy `ok`. */
const soon = (what: string, probe: () => Promise<boolean>) =>
  until(what, async () => (await probe()) || undefined, 5_000, 50);

const c1Ports = () => [
  portHealth('px-a', 8001, SH, false),
  portHealth('px-a', 8002, SH, true),
  portHealth('px-a', 7001, GD, true),
  portHealth('px-shared', 9000, BJ, false),
];
const c2Ports = () => [
  portHealth('px-shared', 9000, BJ, true),
  portHealth('px-b', 8101, SZ, false),
];

const rec = (port: number, w: typeof SH, active: boolean): CityInfoRecord => ({
  port,
  province: w.province,
  city: w.city,
  regionCode: w.regionCode,
  outIp: `203.0.113.${port % 250}`,
  active,
});

t.test('ports of two crawler nodes: listing, dedupe, health flips, a node leaving', async (t) => {
  const { svc, cityInfo, crawler } = await registryCluster(t);
  const c1 = await crawler('c1', c1Ports());
  const c2 = await crawler('c2', c2Ports());

  const all = [
    rec(9000, BJ, true),
    rec(8001, SH, false),
    rec(8002, SH, true),
    rec(7001, GD, true),
    rec(8101, SZ, false),
  ];
  await soon('both nodes pulled on connect', async () => (await cityInfo()).length === 5);

  t.test('every port once, ordered by regionCode then port', async (t) => {
    t.same(await cityInfo(), all, 'the shared port is active because c2 says so');
    t.same(await cityInfo('?deduplicate=false'), all);
    t.same(await cityInfo('?deduplicate=0'), all);
    const res = await svc.client.get(CITY_INFO);
    t.same(Object.keys(res.body.data[0]), [
      'port',
      'province',
      'city',
      'regionCode',
      'outIp',
      'active',
    ]);
  });

  t.test('deduplicated: one per region code, an active one preferred', async (t) => {
    const dedupe = [
      rec(9000, BJ, true),
      rec(8002, SH, true),
      rec(7001, GD, true),
      rec(8101, SZ, false),
    ];
    t.same(await cityInfo('?deduplicate=true'), dedupe);
    t.same(await cityInfo('?deduplicate=1'), dedupe);
    t.same(await cityInfo('?deduplicate=TRUE'), dedupe);
  });

  t.test('region counts for submission checks', async (t) => {
    t.same(await svc.broker.call('proxies.regions'), {
      '110000': { ports: 1, active: 1 },
      '110100': { ports: 1, active: 1 },
      '310000': { ports: 2, active: 1 },
      '310100': { ports: 2, active: 1 },
      '440000': { ports: 2, active: 1 },
      '440300': { ports: 1, active: 0 },
    });
  });

  t.test('a health report flips a port at once, both ways', async (t) => {
    const down = c1Ports().map((p) => (p.port === 8002 ? { ...p, active: false } : p));
    await c1.publish(down);
    await soon('8002 inactive', async () =>
      (await cityInfo()).every((r) => !r.active || r.port !== 8002),
    );
    t.same(
      (await cityInfo('?deduplicate=true')).find((r) => r.city === SH.city),
      rec(8001, SH, false),
      'no active port left in the city: the first one',
    );
    await c1.publish(c1Ports());
    await soon('8002 active again', async () =>
      (await cityInfo()).some((r) => r.port === 8002 && r.active),
    );
    t.same(await cityInfo(), all);
  });

  t.test('a node that leaves: its ports stay listed, inactive', async (t) => {
    await c2.stop();
    await soon('c2 ports inactive', async () =>
      (await cityInfo()).every((r) => r.port !== 9000 || !r.active),
    );
    t.same(await cityInfo(), [
      rec(9000, BJ, false),
      rec(8001, SH, false),
      rec(8002, SH, true),
      rec(7001, GD, true),
      rec(8101, SZ, false),
    ]);
    t.match(await svc.broker.call('proxies.regions'), {
      '110100': { ports: 1, active: 0 },
      '440300': { ports: 1, active: 0 },
    });
  });
});

t.test('the registry pulls what it missed: on start and every resync', async (t) => {
  const namespace = uniqueDbName(t.name);
  const early = await startCrawlerPortsNode(t, {
    transporter: natsUrl(),
    namespace,
    nodeID: 'early',
    ports: [portHealth('px-e', 8001, SH, true)],
  });
  const svc = await startEmbedded(t, {
    SERVICES: 'api,proxies',
    TRANSPORTER: natsUrl(),
    NAMESPACE: namespace,
    PROXY_RESYNC_MS: '300',
  });
  const cityInfo = async () => (await svc.client.get(CITY_INFO)).body.data as CityInfoRecord[];
  await soon('a node that was up before the registry', async () =>
    (await cityInfo()).some((r) => r.port === 8001 && r.active),
  );
  early.set([portHealth('px-e', 8001, SH, false), portHealth('px-e', 8003, SZ, true)]);
  await soon('a change nobody broadcast', async () => (await cityInfo()).length === 2);
  t.same(await cityInfo(), [rec(8001, SH, false), rec(8003, SZ, true)]);
});

t.test('deduplicate other than true, false, 1 or 0 is a 400 listing the rule', async (t) => {
  const svc = await startEmbedded(t, { SERVICES: 'api' });
  for (const query of [
    '?deduplicate=maybe',
    '?deduplicate=',
    '?deduplicate=true&deduplicate=false',
  ]) {
    const res = await svc.client.get(`${CITY_INFO}${query}`);
    t.equal(res.status, 400, query);
    const body = errorEnvelopeSchema.parse(res.body);
    t.equal(body.code, 400);
    t.same(
      body.errors?.map((e) => e.field),
      ['deduplicate'],
      query,
    );
    t.match(body.errors?.[0]?.message, /true or false \(1 or 0\)/);
  }
});

t.test('without a proxies service the lookup is a 503', async (t) => {
  const svc = await startEmbedded(t, { SERVICES: 'api' });
  const res = await svc.client.get(CITY_INFO);
  t.equal(res.status, 503);
  t.match(errorEnvelopeSchema.parse(res.body), {
    success: false,
    code: 503,
    message: /temporarily unavailable/,
  });
});
