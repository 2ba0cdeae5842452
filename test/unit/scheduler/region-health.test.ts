import t from 'tap';
import { RegionHealth } from '../../../services/scheduler/region-health.js';
import type { CrawlerNode } from '../../../services/shared/contracts/advert.js';
import { portHealth } from '../../helpers/crawler-ports.js';

const node = (id: string, regions: string[]): CrawlerNode => ({
  id,
  capacity: 2,
  regions,
  channels: ['api'],
  platforms: ['sandbox'],
});
let next = 0;
const health = (regionCode: string[], active: boolean) =>
  portHealth('proxy', 8000 + ++next, { province: '', city: '', regionCode }, active);

t.test('only regions with an active port count; the advert stands until a report', async (t) => {
  const h = new RegionHealth();
  const nodes = [node('a', ['110000', '310000', '310100']), node('b', ['310000'])];
  t.same(h.apply(nodes), nodes, 'no reports yet');
  h.update({
    node: 'a',
    ports: [health(['310000', '310100'], true), health(['110000'], false)],
  });
  t.same(
    h.apply(nodes).map((n) => [n.id, n.regions]),
    [
      ['a', ['310000', '310100']],
      ['b', ['310000']],
    ],
  );
  h.update({ node: 'a', ports: [health(['310000', '310100'], false)] });
  t.same(h.apply(nodes)[0]!.regions, [], 'every port down: no region');
  h.forget('a');
  t.same(h.apply(nodes)[0]!.regions, ['110000', '310000', '310100'], 'forgotten: advert again');
});

t.test('only active proxy ports stay in the advert, for account claims', async (t) => {
  const h = new RegionHealth();
  const up = health(['310000'], true);
  const down = health(['310000'], false);
  const info = (p: typeof up) => ({
    key: p.key,
    port: p.port,
    province: p.province,
    city: p.city,
    regionCode: p.regionCode,
    outIp: p.outIp,
  });
  const nodes = [{ ...node('a', ['310000']), proxyPorts: [info(up), info(down)] }, node('b', [])];
  t.same(h.apply(nodes)[0]!.proxyPorts, [info(up), info(down)], 'no report: the advert stands');
  h.update({ node: 'a', ports: [up, down] });
  t.same(
    h.apply(nodes)[0]!.proxyPorts!.map((p) => p.key),
    [up.key],
  );
  t.equal(h.apply(nodes)[1]!.proxyPorts, undefined, 'a node without ports has none');
  h.update({ node: 'a', ports: [{ ...up, active: false }, down] });
  t.same(h.apply(nodes)[0]!.proxyPorts, []);
});
