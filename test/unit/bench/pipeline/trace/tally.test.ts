import t from 'tap';
import {
  actionTags,
  spanSample,
  summary,
  Tally,
  withCommandMonitoring,
} from '../../../../../bench/pipeline/trace/tally.js';

t.test('summary: nearest-rank percentiles and the sum', async (t) => {
  const values = Array.from({ length: 100 }, (_, i) => 100 - i);
  t.same(summary(values), { n: 100, p50: 50, p90: 90, p99: 99, max: 100, sum: 5050 });
  t.same(summary([7]), { n: 1, p50: 7, p90: 7, p99: 7, max: 7, sum: 7 });
  const none = summary([]);
  t.equal(none.n, 0);
  t.equal(none.sum, 0);
  t.ok(Number.isNaN(none.p50) && Number.isNaN(none.max));
});

t.test('span samples: actions and events by name, our own and internal ones skipped', async (t) => {
  const span = (type: string, tags: Record<string, unknown>) => ({
    type,
    startTime: 1000,
    duration: 12.5,
    tags,
  });
  t.same(spanSample(span('action', { action: { name: 'tasks.settleBatch' } })), {
    name: 'handle tasks.settleBatch',
    start: 1000,
    ms: 12.5,
  });
  t.same(spanSample(span('event', { eventName: 'task.created' }))?.name, 'event task.created');
  t.equal(spanSample(span('action', { action: { name: 'benchTrace.stats' } })), undefined);
  t.equal(spanSample(span('action', { action: { name: '$node.list' } })), undefined);
  t.equal(spanSample(span('event', { eventName: '$node.connected' })), undefined);
  t.equal(spanSample(span('custom', { action: { name: 'x.y' } })), undefined);
  t.equal(
    spanSample({ ...span('action', { action: { name: 'x.y' } }), duration: null }),
    undefined,
  );
});

t.test('action tags: only the lease count of crawler.accept', async (t) => {
  t.same(actionTags({ action: { name: 'crawler.accept' }, params: { leases: [1, 2, 3] } }), {
    leases: 3,
  });
  t.same(actionTags({ action: { name: 'crawler.accept' }, params: {} }), {});
  t.same(actionTags({ action: { name: 'tasks.submit' }, params: { leases: [1] } }), {});
  t.same(actionTags({ action: null }), {});
});

t.test('tally: samples by name, the earliest start of each, reset', async (t) => {
  const tally = new Tally();
  tally.record('db find tasks', 2000, 5);
  tally.record('db find tasks', 1500, 3);
  tally.record('handle tasks.submit', 1800, 40);
  t.same(tally.firstStarts(), { 'db find tasks': 1500, 'handle tasks.submit': 1800 });
  t.same(tally.summaries()['db find tasks'], { n: 2, p50: 3, p90: 5, p99: 5, max: 5, sum: 8 });
  tally.reset();
  t.same(tally.summaries(), {});
  t.same(tally.firstStarts(), {});
});

t.test('command monitoring in the connection string', async (t) => {
  t.equal(
    withCommandMonitoring('mongodb://127.0.0.1:27017/'),
    'mongodb://127.0.0.1:27017/?monitorCommands=true',
  );
  t.equal(
    withCommandMonitoring('mongodb://127.0.0.1:27017'),
    'mongodb://127.0.0.1:27017/?monitorCommands=true',
  );
  t.equal(
    withCommandMonitoring('mongodb://a:1,b:2/app?replicaSet=rs0'),
    'mongodb://a:1,b:2/app?replicaSet=rs0&monitorCommands=true',
  );
});
