/**
 * A tiny run of `npm run bench:soak` against the test servers, so that a soak
 * that breaks fails the suite: the whole cluster over NATS (api+tasks, two
 * schedulers, callbacks, two crawler nodes with Chromium) for half a minute,
 * a batch every 5 s with callbacks and web sub tasks, crawler1 killed with -9
 * and started again under the same NODE_ID midway. Its correctness checks
 * must pass; its memory figures are printed but too short to be judged.
 */
import t from 'tap';
import { startProcess } from '../../../infra/processes.js';
import { mongoUrl, natsUrl } from '../../helpers/servers.js';

/** Half a minute keeps the suite's time; the checks are the same as an hour's. */
const MINUTES = 0.5;
/** Start (~40 s on a busy machine), the run, settling and stop, with room. */
const KILL_AFTER_MS = 200_000;

t.test('the soak benchmark runs a half-minute soak and its checks pass', async (t) => {
  const bench = startProcess('bench/soak.bench.ts', ['--minutes', String(MINUTES)], {
    BENCH_MONGO_URL: mongoUrl(),
    BENCH_NATS_URL: natsUrl(),
  });
  const killer = setTimeout(() => void bench.stop('SIGKILL'), KILL_AFTER_MS);
  const code = await bench.exited;
  clearTimeout(killer);
  const out = bench.output();
  t.equal(code, 0, 'exits 0');

  t.match(out, /^== soak 0\.50 min: \d+ tasks, \d+ sub tasks \(a batch every 5 s/m);
  t.match(
    out,
    /^crawler1 killed with -9 at 0\.\d+ min and started again under the same NODE_ID \(ready [\d.]+ s after the kill\)/m,
  );
  const checks = out.match(/^check .*$/gm) ?? [];
  t.equal(checks.length, 6, 'six checks');
  for (const line of checks) t.match(line, /: PASS \(/, line);
  t.match(
    out,
    /^soak: 0\.0 of \d+ min: .*; backlog \d+ waiting, \d+ in work/m,
    'the minute line shows the backlog',
  );
  t.match(out, /^status p50 \d+ ms, p99 \d+ ms over \d+ polls$/m);
  for (const name of ['api', 'scheduler1', 'scheduler2', 'callbacks', 'crawler2', 'crawler1 #1'])
    t.match(
      out,
      new RegExp(
        `^ {2}${name}: RSS \\d+ → \\d+ MB \\(-?[\\d.]+ MB/h\\), heap \\d+ → \\d+ MB .*fds \\d+ → \\d+.*; of RSS: V8 heap \\d+ → \\d+ MB .*, buffers .*, native `,
        'm',
      ),
      `${name}: memory and fds sampled`,
    );
});
