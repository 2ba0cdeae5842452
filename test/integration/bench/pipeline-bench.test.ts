/**
 * A tiny run of `npm run bench:pipeline` against the test servers, so that a
 * benchmark that breaks fails the suite: a real cluster of child processes
 * (traced nodes, so the tracing exporter and command monitoring run too), one
 * crawler node of 5 slots, 60 sub tasks of 100 ms, no warm-up, no web part.
 */
import t from 'tap';
import { startProcess } from '../../../infra/processes.js';
import { mongoUrl, natsUrl } from '../../helpers/servers.js';

const SUBTASKS = 60;
const LATENCY_MS = 100;
const CAPACITY = 5;
/** Far above a tiny run's ~30 s on a busy machine; the bench's own watchdog is 15 min. */
const KILL_AFTER_MS = 100_000;

const number = (text: string, re: RegExp): number => {
  const m = re.exec(text);
  if (!m) throw new Error(`no ${re} in the bench's output:\n${text}`);
  return Number(m[1]);
};

t.test('the pipeline benchmark runs end to end and prints its figures', async (t) => {
  const bench = startProcess('bench/pipeline.bench.ts', [], {
    BENCH_MONGO_URL: mongoUrl(),
    BENCH_NATS_URL: natsUrl(),
    BENCH_SUBTASKS: String(SUBTASKS),
    BENCH_LATENCY_MS: String(LATENCY_MS),
    BENCH_NODES: '1',
    BENCH_CAPACITY: String(CAPACITY),
    BENCH_WARMUP: '0',
    BENCH_SUBMITTERS: '2',
    BENCH_SAMPLE_MS: '100',
    BENCH_POLL_MS: '100',
    BENCH_SKIP_WEB: '1',
    BENCH_TRACE: '1',
  });
  const killer = setTimeout(() => void bench.stop('SIGKILL'), KILL_AFTER_MS);
  const code = await bench.exited;
  clearTimeout(killer);
  const out = bench.output();
  t.equal(code, 0, 'exits 0');
  // It builds what its nodes run (infra/build.ts), or finds the build current, before any starts.
  const built = /^build: (?:var\/build is current|var\/build compiled in [\d.]+ s)$/m.exec(out);
  t.ok(built, 'the build is made or found current');
  t.ok(built && built.index < out.indexOf('bench: start cluster'), 'before the cluster starts');

  t.match(out, `sub tasks ${SUBTASKS} (2 tasks of up to 50 prompts x 1 platform)`);
  const wall = number(out, /^wall time ([\d.]+) s/m);
  const ideal = number(out, /^ideal time ([\d.]+) s/m);
  const ratio = number(out, /^ratio ideal\/wall ([\d.]+) /m);
  t.equal(
    ideal,
    (SUBTASKS * LATENCY_MS) / CAPACITY / 1000,
    'ideal = sub tasks x latency / capacity',
  );
  t.ok(wall >= ideal, `no run beats the ideal (wall ${wall} s)`);
  t.ok(Math.abs(ratio - ideal / wall) < 0.01, `ratio ${ratio} = ideal / wall`);
  const peak = number(out, /^peak concurrency (\d+) platform requests/m);
  t.ok(peak >= 1 && peak <= CAPACITY, `peak ${peak} within the node's ${CAPACITY} slots`);
  t.match(out, /^final statuses: tasks completed 2; sub tasks completed 60$/m);
  t.equal(number(out, /^platform requests (\d+):/m), SUBTASKS, 'one platform request each');
  t.match(out, /^start spread per wave \(p5-p95\): wave 1 \d+ ms/m);
  t.match(out, /^CPU during the run: api [\d.]+ s, scheduler [\d.]+ s, crawler1 [\d.]+ s/m);

  // The traced nodes' Moleculer spans and MongoDB commands.
  t.match(out, /^ramp-up, first start after the first submit: handle tasks.submit \+\d+ ms/m);
  const settled = number(out, /^ {2}handle tasks\.settleBatch: n (\d+),/m);
  t.ok(settled >= 1 && settled <= SUBTASKS, `${settled} settleBatch spans`);
  const leases = number(out, /^ {2}leases per crawler\.accept: n (\d+),/m);
  t.ok(leases >= 1, `${leases} crawler.accept spans with their lease counts`);
  t.match(out, /^ {2}db insert subtasks: n \d+,/m, 'MongoDB commands of the api node');
  t.match(out, /child warnings 0\)$/m);
});
