import t from 'tap';
import {
  capableNodes,
  pickNode,
  placeableNodes,
  type Placement,
} from '../../../services/scheduler/nodes.js';
import {
  crawlerNodes,
  runsPair,
  type CrawlerNode,
} from '../../../services/shared/contracts/advert.js';

const advert = (capacity: number, extra: Partial<CrawlerNode> = {}) => ({
  capacity,
  regions: ['110000'],
  channels: ['api' as const],
  platforms: ['sandbox'],
  ...extra,
});

t.test('crawlerNodes parses node metadata', async (t) => {
  const nodes = crawlerNodes([
    { id: 'api-1', available: true, metadata: {} },
    { id: 'no-meta' },
    { id: 'other-meta', metadata: { something: 1 } },
    { id: 'c1', available: true, metadata: { crawler: advert(4) } },
    { id: 'down', available: false, metadata: { crawler: advert(4) } },
    { id: 'zero', metadata: { crawler: advert(0) } },
    { id: 'negative', metadata: { crawler: advert(-1) } },
    { id: 'nan', metadata: { crawler: advert(Number.NaN) } },
    {
      id: 'c2',
      metadata: {
        crawler: advert(2, { regions: [], channels: ['api', 'web'], platforms: ['a', 'b'] }),
      },
    },
  ]);
  t.strictSame(nodes, [
    { id: 'c1', capacity: 4, regions: ['110000'], channels: ['api'], platforms: ['sandbox'] },
    { id: 'c2', capacity: 2, regions: [], channels: ['api', 'web'], platforms: ['a', 'b'] },
  ]);
  t.strictSame(crawlerNodes([]), []);
});

t.test('crawlerNodes: available undefined counts as available', async (t) => {
  t.strictSame(
    crawlerNodes([{ id: 'c', metadata: { crawler: advert(1) } }]).map((n) => n.id),
    ['c'],
  );
});

t.test('a draining node is live but takes no new work', async (t) => {
  const live = crawlerNodes([
    { id: 'staying', metadata: { crawler: advert(2) } },
    { id: 'leaving', metadata: { crawler: advert(2, { draining: true }) } },
  ]);
  t.strictSame(
    live.map((n) => n.id),
    ['staying', 'leaving'],
    'still listed (its platforms and ports stay known)',
  );
  t.strictSame(
    placeableNodes(live).map((n) => n.id),
    ['staying'],
  );
  t.strictSame(placeableNodes([]), []);
});

const nodes: CrawlerNode[] = [
  { id: 'bj', capacity: 2, regions: ['110000'], channels: ['api'], platforms: ['chatgpt'] },
  {
    id: 'sh',
    capacity: 2,
    regions: ['310000'],
    channels: ['api', 'web'],
    platforms: ['chatgpt', 'claude'],
  },
  { id: 'plain', capacity: 2, regions: [], channels: ['web'], platforms: ['claude'] },
];

const place = (p: Partial<Placement>): Placement => ({
  platform: 'chatgpt',
  channel: 'api',
  regionCode: null,
  lastNode: null,
  ...p,
});

const ids = (list: CrawlerNode[]) => list.map((n) => n.id);

t.test('capableNodes', async (t) => {
  t.strictSame(ids(capableNodes(nodes, place({}))), ['bj', 'sh'], 'null region: any node');
  t.strictSame(ids(capableNodes(nodes, place({ platform: 'claude' }))), ['sh'], 'claude on api');
  t.strictSame(ids(capableNodes(nodes, place({ platform: 'claude', channel: 'web' }))), [
    'sh',
    'plain',
  ]);
  t.strictSame(ids(capableNodes(nodes, place({ channel: 'web' }))), ['sh'], 'chatgpt on web');
  t.strictSame(ids(capableNodes(nodes, place({ regionCode: '110000' }))), ['bj']);
  t.strictSame(ids(capableNodes(nodes, place({ regionCode: '310000' }))), ['sh']);
  t.strictSame(ids(capableNodes(nodes, place({ regionCode: '440000' }))), [], 'no such region');
  t.strictSame(ids(capableNodes(nodes, place({ platform: 'gemini' }))), [], 'no such platform');
  t.strictSame(
    ids(capableNodes(nodes, place({ platform: 'claude', channel: 'web', regionCode: '110000' }))),
    [],
    'all three must match on one node',
  );
  t.strictSame(ids(capableNodes([], place({}))), []);
});

t.test('capableNodes ignores load and lastNode', async (t) => {
  t.strictSame(ids(capableNodes(nodes, place({ lastNode: 'bj' }))), ['bj', 'sh']);
});

const cluster: CrawlerNode[] = [
  { id: 'n1', capacity: 4, regions: [], channels: ['api'], platforms: ['sandbox'] },
  { id: 'n2', capacity: 4, regions: [], channels: ['api'], platforms: ['sandbox'] },
  { id: 'n3', capacity: 2, regions: [], channels: ['api'], platforms: ['sandbox'] },
];
const sandbox = (lastNode: string | null = null): Placement =>
  place({ platform: 'sandbox', lastNode });
const load = (busy: Record<string, number>) => (id: string) => busy[id] ?? 0;

t.test('pickNode: most free slots', async (t) => {
  t.equal(pickNode(cluster, sandbox(), load({}))?.id, 'n1', 'tie → first in list');
  t.equal(pickNode(cluster, sandbox(), load({ n1: 1 }))?.id, 'n2');
  t.equal(pickNode(cluster, sandbox(), load({ n1: 3, n2: 3 }))?.id, 'n3', 'n3 has 2 free');
  t.equal(pickNode(cluster, sandbox(), load({ n1: 2, n2: 3 }))?.id, 'n1');
});

t.test('pickNode prefers another node than the last attempt when it has room', async (t) => {
  t.equal(pickNode(cluster, sandbox('n1'), load({}))?.id, 'n2');
  t.equal(
    pickNode(cluster, sandbox('n1'), load({ n2: 3, n3: 1 }))?.id,
    'n2',
    'even with fewer free slots than the last node',
  );
  t.equal(pickNode(cluster, sandbox('n1'), load({ n2: 3, n3: 0 }))?.id, 'n3');
  t.equal(pickNode(cluster, sandbox('gone'), load({}))?.id, 'n1', 'unknown last node');
});

t.test('pickNode falls back to the last node when it is the only one with room', async (t) => {
  t.equal(pickNode(cluster, sandbox('n1'), load({ n2: 4, n3: 2 }))?.id, 'n1');
  const single = [cluster[0]!];
  t.equal(pickNode(single, sandbox('n1'), load({}))?.id, 'n1');
});

t.test('pickNode: undefined when every capable node is full', async (t) => {
  t.equal(pickNode(cluster, sandbox(), load({ n1: 4, n2: 4, n3: 2 })), undefined);
  t.equal(pickNode(cluster, sandbox('n1'), load({ n1: 4, n2: 5, n3: 2 })), undefined, 'overfull');
  t.equal(pickNode([], sandbox(), load({})), undefined, 'no nodes');
  t.equal(pickNode(cluster, place({ platform: 'claude' }), load({})), undefined, 'none capable');
});

t.test('pickNode only considers capable nodes', async (t) => {
  t.equal(pickNode(nodes, place({ regionCode: '310000' }), load({}))?.id, 'sh');
  t.equal(pickNode(nodes, place({ regionCode: '310000' }), load({ sh: 2 })), undefined);
  t.equal(
    pickNode(nodes, place({ regionCode: '310000', lastNode: 'sh' }), load({ bj: 0 }))?.id,
    'sh',
    'bj has room but not the region',
  );
});

t.test('pickNode counts a node prefetch as room beyond its capacity', async (t) => {
  const withPrefetch: CrawlerNode[] = [
    { ...cluster[0]!, prefetch: 1 },
    { ...cluster[2]!, prefetch: 0 },
  ];
  t.equal(pickNode(withPrefetch, sandbox(), load({ n1: 4, n3: 2 }))?.id, 'n1', 'one waiting slot');
  t.equal(pickNode(withPrefetch, sandbox(), load({ n1: 5, n3: 2 })), undefined);
  t.equal(pickNode(withPrefetch, sandbox(), load({ n1: 4, n3: 1 }))?.id, 'n3', 'free slots first');
});

t.test('runsPair: the pairs a node advertises, else its platforms on its channels', async (t) => {
  const old = advert(1, { channels: ['api', 'web'], platforms: ['a', 'b'] });
  t.equal(runsPair(old, 'a', 'web'), true, 'a node without pairs: every platform on every channel');
  t.equal(runsPair(old, 'c', 'api'), false);
  const paired = { ...old, pairs: ['a:api', 'b:web'] };
  t.equal(runsPair(paired, 'a', 'api'), true);
  t.equal(runsPair(paired, 'a', 'web'), false, 'no web driver for a');
  t.equal(runsPair(paired, 'b', 'web'), true);
  t.equal(runsPair({ ...paired, channels: ['api'] }, 'b', 'web'), false, 'channel not run');
});
