import t from 'tap';
import { formatTable, regionRows } from '../../../bin/region-table.js';
import { portHealth } from '../../helpers/crawler-ports.js';

let next = 0;
const port = (regionCode: string[], active: boolean) =>
  portHealth('proxy', 8000 + ++next, { province: '', city: '', regionCode }, active);
const node = (id: string, capacity: number, regions: string[]) => ({
  id,
  capacity,
  regions,
  channels: ['api' as const],
  platforms: ['sandbox'],
});

t.test('one row per region and node, active ports counted per region', async (t) => {
  const rows = regionRows([
    {
      node: node('sh-1', 20, ['310000', '310100']),
      running: 3,
      ports: [port(['310000', '310100'], true), port(['310000', '310100'], false)],
    },
    { node: node('bj-1', 10, ['110000']), running: null, ports: [port(['110000'], true)] },
    { node: node('plain', 4, []), running: 0, ports: [] },
  ]);
  t.same(rows, [
    ['(any)', 'plain', '4', '0', 'direct'],
    ['110000', 'bj-1', '10', '?', '1/1'],
    ['310000', 'sh-1', '20', '3', '1/2'],
    ['310100', 'sh-1', '20', '3', '1/2'],
  ]);
  t.equal(
    formatTable(
      ['region', 'node'],
      [
        ['(any)', 'plain'],
        ['110000', 'bj-1'],
      ],
    ),
    'region  node \n(any)   plain\n110000  bj-1 ',
  );
});
