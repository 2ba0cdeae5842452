/**
 * A tiny run of `npm run bench:mcp` against the test server, so that a
 * benchmark that breaks fails the suite: a 2-sub-task task, 20 timed pairs.
 * It checks that both figures are printed and sane, not their size.
 */
import t from 'tap';
import { startProcess } from '../../../infra/processes.js';
import { mongoUrl } from '../../helpers/servers.js';

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
