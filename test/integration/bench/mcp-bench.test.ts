/**
 * Tiny runs of the benchmarks on the embedded API (`npm run bench:mcp`,
 * `npm run bench:monitors`) against the test server, so that a benchmark that
 * breaks fails the suite. They check that the figures are printed and sane,
 * not their size.
 */
import t from 'tap';
import { startProcess } from '../../../infra/processes.js';
import { mongoUrl, natsUrl } from '../../helpers/servers.js';

t.test('the MCP benchmark runs end to end and prints its figures', async (t) => {
  const bench = startProcess('bench/mcp.bench.ts', [], {
    BENCH_MONGO_URL: mongoUrl(),
    BENCH_ROUNDS: '20',
    BENCH_SUBTASKS: '2',
  });
  const killer = setTimeout(() => void bench.stop('SIGKILL'), 90_000);
  const code = await bench.exited;
  clearTimeout(killer);
  const out = bench.output();
  t.equal(code, 0, `exits 0 (output: ${out.slice(-1500)})`);
  for (const what of ['status', 'results \\(2 sub tasks\\)']) {
    t.match(
      out,
      new RegExp(
        `^${what}: REST p50 [\\d.]+ ms, p99 [\\d.]+ ms; MCP p50 [\\d.]+ ms, p99 [\\d.]+ ms; overhead at p50 -?[\\d.]+ ms \\(target < 2 ms: (met|missed)\\) over 20 pairs$`,
        'm',
      ),
    );
  }
});

t.test('the monitors benchmark runs end to end and prints its figures', async (t) => {
  const bench = startProcess(
    'bench/monitors.bench.ts',
    ['--runs', '3', '--prompts', '2', '--platforms', '2', '--rounds', '2', '--monitors', '3'],
    // With NATS, the tasks service answers from a child process: the leader's CPU alone.
    { BENCH_MONGO_URL: mongoUrl(), BENCH_NATS_URL: natsUrl() },
  );
  const killer = setTimeout(() => void bench.stop('SIGKILL'), 90_000);
  const code = await bench.exited;
  clearTimeout(killer);
  const out = bench.output();
  t.equal(code, 0, `exits 0 (output: ${out.slice(-1500)})`);
  t.match(out, /^every cell read \(the read trends did before pre-pooling\): p50 [\d.]+ ms/m);
  t.match(
    out,
    /^trends: 3 runs × 2 prompts × 2 platforms × 3 samples \(12 cells, \d+ KiB answer\): p50 [\d.]+ ms, p95 [\d.]+ ms over 2 requests \(target < 300 ms: (met|missed)\); CPU of this process \(api and monitors, not the database\) p50 [\d.]+ ms$/m,
  );
  t.match(
    out,
    /^leader: 3 monitors due in one minute started in [\d.]+ ms wall, [\d.]+ ms CPU of this process \(the leader alone: tasks.submit answered by another process; target < 1000 ms: (met|missed)\)$/m,
  );
});
