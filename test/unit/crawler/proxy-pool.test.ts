import t from 'tap';
import { ProxyPool, type CheckResult } from '../../../crawler/proxy-pool.js';
import { resolvePorts } from '../../../crawler/proxy-ports.js';
import type { ProxyPortConfig } from '../../../services/shared/proxy-ports.js';

const port = (n: number, regionCode: string[], outIp = `127.0.0.${n}`): ProxyPortConfig => ({
  port: 8000 + n,
  url: `http://u:p@127.0.0.1:${8000 + n}`,
  province: '',
  city: '',
  regionCode,
  outIp,
});
const SH = ['310000', '310100'];
const BJ = ['110000', '110100'];

function pool(ports: ProxyPortConfig[]) {
  const results = new Map<string, CheckResult>();
  const ok: CheckResult = { ok: true, observedIp: null, error: null };
  let now = 1_000;
  const p = new ProxyPool(
    ports,
    async (c) => {
      const r = results.get(c.url);
      if (r instanceof Error) throw r;
      return r ?? ok;
    },
    { now: () => now },
  );
  return { p, results, tick: (ms: number) => (now += ms) };
}

t.test('regions and health of the configured ports', async (t) => {
  const { p } = pool([port(2, SH), port(3, BJ), port(4, SH)]);
  t.same(p.regions(), ['110000', '110100', '310000', '310100']);
  t.same(
    p.health().map((h) => [h.key, h.active, h.checkedAt]),
    [
      ['127.0.0.1:8002', true, 0],
      ['127.0.0.1:8003', true, 0],
      ['127.0.0.1:8004', true, 0],
    ],
    'active until the first check says otherwise',
  );
  t.notOk(JSON.stringify(p.health()).includes('u:p@'), 'credentials never leave the node');
});

t.test('pick: an active port of the region, taking turns, avoiding the failed one', async (t) => {
  const { p, results } = pool([port(2, SH), port(3, BJ), port(4, SH)]);
  const picks = [1, 2, 3, 4].map(() => p.pick('310100')?.key);
  t.same(new Set(picks), new Set(['127.0.0.1:8002', '127.0.0.1:8004']), 'both Shanghai ports');
  t.equal(p.pick('110000')?.outIp, '127.0.0.3', 'a province code finds its city port');
  for (let i = 0; i < 4; i++) t.equal(p.pick('310100', '127.0.0.1:8002')?.key, '127.0.0.1:8004');
  t.equal(p.pick('440100'), undefined, 'no port for the region');

  results.set('http://u:p@127.0.0.1:8004', { ok: false, observedIp: null, error: 'refused' });
  t.equal(await p.checkAll(), true, 'a changed state is reported');
  t.equal(await p.checkAll(), false, 'an unchanged one is not');
  t.equal(
    p.pick('310100', '127.0.0.1:8002')?.key,
    '127.0.0.1:8002',
    'the avoided port when it is the only active one',
  );
  t.match(p.health()[2], { active: false, error: 'refused', checkedAt: 1_000 });
  t.equal(p.pick(null)?.key !== '127.0.0.1:8004', true, 'no region: any active port');
});

t.test('no region: direct when the node has no active port', async (t) => {
  t.equal(pool([]).p.pick(null), null);
  const { p, results } = pool([port(2, SH)]);
  results.set('http://u:p@127.0.0.1:8002', { ok: false, observedIp: null, error: 'down' });
  await p.checkAll();
  t.equal(p.pick(null), null);
  t.equal(p.pick('310000'), undefined);
});

t.test('recheck after a failed attempt; a throwing check counts as a failure', async (t) => {
  const { p, results } = pool([port(2, SH)]);
  results.set('http://u:p@127.0.0.1:8002', new Error('boom') as never);
  t.equal(await p.recheck('127.0.0.1:8002'), true);
  t.match(p.health()[0], { active: false, error: 'boom' });
  t.equal(await p.recheck('elsewhere:1'), false, 'an unknown key changes nothing');
  results.delete('http://u:p@127.0.0.1:8002');
  t.equal(await p.recheck('127.0.0.1:8002'), true);
  t.match(p.health()[0], { active: true, error: null });
});

t.test('resolvePorts completes codes and names from the division data', async (t) => {
  const [sh, bj, named] = resolvePorts([
    { port: 1, url: 'http://a:1', regionCode: ['310100'], outIp: '1.1.1.1' },
    { port: 2, url: 'http://a:2', regionCode: ['110000'], outIp: '1.1.1.2' },
    { port: 3, url: 'http://a:3', regionCode: ['440300'], city: '深圳', outIp: '1.1.1.3' },
  ]);
  t.match(sh, { regionCode: ['310000', '310100'], province: '上海市', city: '上海市' });
  t.match(bj, { regionCode: ['110000'], province: '北京市', city: '北京市' });
  t.match(named, { regionCode: ['440000', '440300'], province: '广东省', city: '深圳' });
});

t.test(
  'byKey: the pinned port of an account, whatever its region, while it is active',
  async (t) => {
    const { p, results } = pool([port(2, SH), port(3, BJ)]);
    t.same(p.byKey('127.0.0.1:8003'), {
      key: '127.0.0.1:8003',
      url: 'http://u:p@127.0.0.1:8003',
      outIp: '127.0.0.3',
    });
    t.equal(p.byKey('127.0.0.1:8009'), undefined, 'not a port of this node');
    results.set('http://u:p@127.0.0.1:8003', { ok: false, observedIp: null, error: 'refused' });
    await p.checkAll();
    t.equal(p.byKey('127.0.0.1:8003'), 'inactive');
    t.match(p.byKey('127.0.0.1:8002'), { key: '127.0.0.1:8002' });
  },
);
