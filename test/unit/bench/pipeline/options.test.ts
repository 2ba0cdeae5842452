import t from 'tap';
import { parseDbPids, pipelineOptions } from '../../../../bench/pipeline/options.js';

const servers = { BENCH_MONGO_URL: 'mongodb://127.0.0.1:1/', BENCH_NATS_URL: 'nats://127.0.0.1:2' };

t.test('no server URLs, no options', async (t) => {
  t.equal(pipelineOptions({}), undefined);
  t.equal(pipelineOptions({ BENCH_MONGO_URL: servers.BENCH_MONGO_URL }), undefined);
});

t.test('defaults: the measured configuration', async (t) => {
  t.same(pipelineOptions(servers), {
    mongoUrl: servers.BENCH_MONGO_URL,
    natsUrl: servers.BENCH_NATS_URL,
    subtasks: 2000,
    latencyMs: 1000,
    nodes: 2,
    capacity: 50,
    prefetch: 50,
    warmup: 500,
    submitters: 4,
    webSubtasks: 120,
    webCapacity: 4,
    skipWeb: false,
    sampleMs: 1000,
    pollMs: 1000,
    streamWrites: 8,
    trace: false,
    dbPids: [],
  });
});

t.test('knobs; the prefetch follows the capacity unless set', async (t) => {
  const o = pipelineOptions({
    ...servers,
    BENCH_SUBTASKS: '10',
    BENCH_CAPACITY: '3',
    BENCH_WARMUP: '0',
    BENCH_SKIP_WEB: '1',
    BENCH_TRACE: '1',
    BENCH_STREAM_WRITES: ' ',
  })!;
  t.equal(o.subtasks, 10);
  t.equal(o.capacity, 3);
  t.equal(o.prefetch, 3);
  t.equal(o.warmup, 0);
  t.equal(o.skipWeb, true);
  t.equal(o.trace, true);
  t.equal(o.streamWrites, 8, 'blank is the default');
  t.equal(pipelineOptions({ ...servers, BENCH_PREFETCH: '0' })!.prefetch, 0);
});

t.test('a bad knob is refused by name', async (t) => {
  t.throws(
    () => pipelineOptions({ ...servers, BENCH_NODES: '0' }),
    /BENCH_NODES must be a number >= 1/,
  );
  t.throws(() => pipelineOptions({ ...servers, BENCH_LATENCY_MS: 'soon' }), /BENCH_LATENCY_MS/);
});

t.test('database server pids', async (t) => {
  t.same(parseDbPids(' mongo-server:123  nats:456 '), [
    { name: 'mongo-server', pid: 123 },
    { name: 'nats', pid: 456 },
  ]);
  t.same(parseDbPids('nats: :5 mongo:x ferret:0'), [], 'malformed pairs are dropped');
  t.same(parseDbPids(''), []);
});
