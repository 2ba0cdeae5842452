import t from 'tap';
import { ProxyRegistry } from '../../../services/proxies/registry.js';
import type { ProxyPortHealth } from '../../../services/shared/proxy-ports.js';

const FORGET_MS = 600_000;

function setup() {
  const clock = { at: 1_000, now: () => clock.at };
  return { clock, registry: new ProxyRegistry(clock, FORGET_MS) };
}

const SH = { province: '上海市', city: '上海市', regionCode: ['310000', '310100'] };
const SZ = { province: '广东省', city: '深圳市', regionCode: ['440000', '440300'] };
const GD = { province: '广东省', city: '广东省', regionCode: ['440000'] };

function port(
  key: string,
  where: typeof SH,
  active: boolean,
  extra: Partial<ProxyPortHealth> = {},
): ProxyPortHealth {
  const n = Number(key.split(':')[1]);
  return {
    key,
    port: n,
    ...where,
    regionCode: [...where.regionCode],
    outIp: `203.0.113.${n % 250}`,
    active,
    checkedAt: 500,
    observedIp: null,
    error: active ? null : 'connect refused',
    ...extra,
  };
}

const record = (p: ProxyPortHealth) => ({
  port: p.port,
  province: p.province,
  city: p.city,
  regionCode: p.regionCode,
  outIp: p.outIp,
  active: p.active,
});

t.test('city info lists every port as a spec record, ordered by region then port', async (t) => {
  const { registry } = setup();
  const a = [port('p1:8002', SZ, true), port('p1:8001', SH, false), port('p1:7000', GD, true)];
  const b = [port('p2:8000', SZ, true), port('p2:8001', SH, true)];
  registry.report('b', { node: 'b', ports: b });
  registry.report('a', { node: 'a', ports: a });
  t.same(registry.cityInfo(false), [
    record(port('p1:8001', SH, false)), // equal ports: by key
    record(port('p2:8001', SH, true)),
    record(port('p1:7000', GD, true)),
    record(port('p2:8000', SZ, true)),
    record(port('p1:8002', SZ, true)),
  ]);
  for (const r of registry.cityInfo(false)) {
    t.same(Object.keys(r), ['port', 'province', 'city', 'regionCode', 'outIp', 'active']);
  }
});

t.test('deduplicated: one port per most specific code, an active one preferred', async (t) => {
  const { registry } = setup();
  registry.report('a', {
    node: 'a',
    ports: [
      port('h:8001', SH, false),
      port('h:8002', SH, true),
      port('h:8003', SH, true),
      port('h:7001', GD, false),
      port('h:7002', GD, false),
      port('h:9001', SZ, true),
    ],
  });
  t.same(
    registry.cityInfo(true).map((r) => [r.regionCode.at(-1), r.port, r.active]),
    [
      ['310100', 8002, true],
      ['440000', 7001, false],
      ['440300', 9001, true],
    ],
    'the first active port in order; without one the first port',
  );
});

t.test('a port key reported by two nodes appears once, active if active on any', async (t) => {
  const { registry } = setup();
  registry.report('a', { node: 'a', ports: [port('shared:8001', SH, true, { checkedAt: 100 })] });
  registry.report('b', { node: 'b', ports: [port('shared:8001', SH, false, { checkedAt: 900 })] });
  t.same(registry.cityInfo(false), [record(port('shared:8001', SH, true))]);
  t.same(registry.regions(), {
    '310000': { ports: 1, active: 1 },
    '310100': { ports: 1, active: 1 },
  });

  registry.report('a', {
    node: 'a',
    ports: [port('shared:8001', SH, false, { checkedAt: 100, outIp: '198.51.100.1' })],
  });
  t.equal(
    registry.cityInfo(false)[0]!.outIp,
    port('shared:8001', SH, false).outIp,
    'both inactive: the latest check wins',
  );
  t.equal(registry.cityInfo(false)[0]!.active, false);
});

t.test('a new report replaces the node state', async (t) => {
  const { registry } = setup();
  registry.report('a', { node: 'a', ports: [port('h:8001', SH, true), port('h:8002', SZ, true)] });
  registry.report('a', { node: 'a', ports: [port('h:8001', SH, false)] });
  t.same(registry.cityInfo(false), [record(port('h:8001', SH, false))]);
});

t.test('a gone node: ports inactive with the reason, forgotten later', async (t) => {
  const { clock, registry } = setup();
  registry.report('a', { node: 'a', ports: [port('h:8001', SH, true)] });
  registry.report('b', { node: 'b', ports: [port('h:9001', SZ, true)] });
  registry.gone('a');
  registry.gone('unknown');
  t.same(registry.ports()[0], {
    ...port('h:8001', SH, true),
    active: false,
    error: 'crawler node a is gone',
  });
  t.same(registry.regions(), {
    '310000': { ports: 1, active: 0 },
    '310100': { ports: 1, active: 0 },
    '440000': { ports: 1, active: 1 },
    '440300': { ports: 1, active: 1 },
  });

  clock.at += FORGET_MS - 1;
  registry.gone('a');
  t.equal(registry.cityInfo(false).length, 2, 'still listed just before the forget time');
  clock.at += 1;
  t.same(
    registry.cityInfo(false).map((r) => r.port),
    [9001],
    'forgotten at the forget time; a repeated notice did not postpone it',
  );
});

t.test('a node that comes back reports again and is no longer forgotten', async (t) => {
  const { clock, registry } = setup();
  registry.report('a', { node: 'a', ports: [port('h:8001', SH, true)] });
  registry.gone('a');
  clock.at += 1_000;
  registry.report('a', { node: 'a', ports: [port('h:8001', SH, true)] });
  clock.at += FORGET_MS;
  t.same(registry.cityInfo(false), [record(port('h:8001', SH, true))]);
});

t.test('retain marks nodes that are not live any more as gone', async (t) => {
  const { registry } = setup();
  registry.report('a', { node: 'a', ports: [port('h:8001', SH, true)] });
  registry.report('b', { node: 'b', ports: [port('h:9001', SZ, true)] });
  registry.retain(['b']);
  t.same(
    registry.ports().map((p) => [p.port, p.active, p.error]),
    [
      [8001, false, 'crawler node a is gone'],
      [9001, true, null],
    ],
  );
});

t.test('a pulled report older than an event that arrived meanwhile is dropped', async (t) => {
  const { registry } = setup();
  const before = registry.version('a');
  registry.report('a', { node: 'a', ports: [port('h:8001', SH, false)] });
  t.notOk(registry.report('a', { node: 'a', ports: [port('h:8001', SH, true)] }, before));
  t.same(registry.cityInfo(false), [record(port('h:8001', SH, false))]);

  const current = registry.version('a');
  t.ok(registry.report('a', { node: 'a', ports: [port('h:8001', SH, true)] }, current));
  t.equal(registry.cityInfo(false)[0]!.active, true);

  const beforeGone = registry.version('a');
  registry.gone('a');
  t.notOk(
    registry.report('a', { node: 'a', ports: [port('h:8001', SH, true)] }, beforeGone),
    'an answer from a node that left meanwhile is dropped too',
  );
});

t.test('empty registry', async (t) => {
  const { registry } = setup();
  t.same(registry.cityInfo(false), []);
  t.same(registry.cityInfo(true), []);
  t.same(registry.regions(), {});
});
