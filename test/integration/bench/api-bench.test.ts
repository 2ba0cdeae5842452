/**
 * `npm run bench` must keep working: the API benchmark runs here with tiny
 * knobs, as a child process against the test's MongoDB-wire server, and must
 * exit 0 and print each of its figures.
 */
import t from 'tap';
import { startProcess } from '../../../infra/processes.js';
import { mongoUrl } from '../../helpers/servers.js';

t.test('the API benchmark runs end to end with tiny knobs', async (t) => {
  const bench = startProcess('bench/api.bench.ts', [], {
    BENCH_MONGO_URL: mongoUrl(),
    BENCH_PROMPTS: '2',
    BENCH_SUBMIT_ROUNDS: '1',
    BENCH_POLLERS: '4',
    BENCH_SECONDS: '0.5',
    BENCH_BATCH_TASKS: '2',
    BENCH_CAPACITY: '4',
    BENCH_LATENCY_MS: '50',
  });
  const kill = setTimeout(() => void bench.stop('SIGKILL'), 90_000);
  const code = await bench.exited;
  clearTimeout(kill);
  const out = bench.output();
  t.equal(code, 0, `exit code (output: ${out.slice(-2000)})`);
  t.match(out, /== figures/);
  t.match(
    out,
    /^submit 2 prompts × \d+ configurations .* = \d+ sub tasks in \d+ requests, one after another: median round [\d.]+ ms/m,
  );
  t.match(
    out,
    /^the same by 4 clients side by side: median round [\d.]+ ms \([\d.]+ ms per 2,500\), per request p50 [\d.]+ ms$/m,
  );
  t.match(
    out,
    /^submission per 2,500 sub tasks: [\d.]+ ms \(median round × 2,500 \/ \d+; target < 300 ms: (met|missed)\)$/m,
  );
  t.match(
    out,
    /^bare Koa handler, same \d+-byte body, x4: \d+ req\/s, p50 [\d.]+ ms, p99 [\d.]+ ms/m,
  );
  t.match(out, /^status x4, quiet \(4 sub tasks\): \d+ req\/s, .* errors 0$/m);
  t.match(
    out,
    /^status x4 under load \(4-sub-task task polled while a 8-sub-task batch ran;.* errors 0$/m,
  );
  t.match(out, /^under load vs bare: \d+ % of the rate/m);
  t.notMatch(out, /batch not finished/);
});
