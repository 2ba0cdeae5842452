import t from 'tap';
import { soakOptions } from '../../../../bench/soak/options.js';

const servers = { BENCH_MONGO_URL: 'mongodb://127.0.0.1:1/', BENCH_NATS_URL: 'nats://127.0.0.1:2' };

t.test('no server URLs, no options', async (t) => {
  t.equal(soakOptions([], {}), undefined);
});

t.test('defaults: an hour, a batch every 5 s, 300 ms answers, 2 % failures', async (t) => {
  t.same(soakOptions([], servers), {
    mongoUrl: servers.BENCH_MONGO_URL,
    natsUrl: servers.BENCH_NATS_URL,
    runMs: 3_600_000,
    everyMs: 5_000,
    apiPrompts: 20,
    webPrompts: 2,
    latencyMs: 300,
    failureRate: 0.02,
    sampleMs: 30_000,
    dbPids: [],
    dbFile: undefined,
  });
});

t.test('fractions of a minute, and a tiny run samples often', async (t) => {
  const o = soakOptions(['--minutes', '0.5'], servers)!;
  t.equal(o.runMs, 30_000);
  t.equal(o.sampleMs, 2_500, 'twelve samples in the run');
  t.equal(soakOptions(['--minutes', '0.05'], servers)!.sampleMs, 1_000, 'at most one a second');
  t.equal(soakOptions(['--minutes', '0.5', '--sample', '3'], servers)!.sampleMs, 3_000);
});

t.test('every flag, and the servers from bench/soak.sh', async (t) => {
  const o = soakOptions(
    ['--every', '2', '--api-prompts', '5', '--web-prompts', '0', '--latency', '50'],
    {
      ...servers,
      BENCH_DB_PIDS: 'mongo-server:12 nats:34',
      BENCH_DB_FILE: '/x/data.mv',
    },
  )!;
  t.match(o, { everyMs: 2_000, apiPrompts: 5, webPrompts: 0, latencyMs: 50, dbFile: '/x/data.mv' });
  t.same(o.dbPids, [
    { name: 'mongo-server', pid: 12 },
    { name: 'nats', pid: 34 },
  ]);
});

t.test('bad command lines say how to use it', async (t) => {
  for (const argv of [
    ['--minutes'],
    ['--minutes', 'x'],
    ['--minutes', '0'],
    ['--hours', '1'],
    ['--api-prompts', '51'],
    ['--api-prompts', '0', '--web-prompts', '0'],
    ['--failure-rate', '2'],
  ])
    t.throws(() => soakOptions(argv, servers), /usage: bench:soak/, argv.join(' '));
});
