/**
 * A tiny run of `npm run bench:export` against the test server, so that a
 * benchmark that breaks fails the suite: 40 sub tasks, one round. It checks
 * that the three figures are printed and sane, not their size (a busy
 * machine decides those).
 */
import t from 'tap';
import { startProcess } from '../../../infra/processes.js';
import { mongoUrl } from '../../helpers/servers.js';

const SUB_TASKS = 40;
const KILL_AFTER_MS = 100_000;

t.test('the export benchmark runs end to end and prints its figures', async (t) => {
  const bench = startProcess(
    'bench/export.bench.ts',
    ['--subtasks', String(SUB_TASKS), '--rounds', '1'],
    { BENCH_MONGO_URL: mongoUrl() },
  );
  const killer = setTimeout(() => void bench.stop('SIGKILL'), KILL_AFTER_MS);
  const code = await bench.exited;
  clearTimeout(killer);
  const out = bench.output();
  t.equal(code, 0, 'exits 0');
  t.match(out, new RegExp(`^== export of ${SUB_TASKS} sub tasks \\(seeded in [\\d.]+ s\\)`, 'm'));
  t.match(out, /^RSS before the exports \d+ MB$/m);
  for (const format of ['csv', 'ndjson', 'xlsx']) {
    const m = new RegExp(
      `^${format}: (\\d+) rows per second \\(${SUB_TASKS} rows in ([\\d.]+) s, ([\\d.]+) MB\\), peak RSS (\\d+) MB$`,
      'm',
    ).exec(out);
    t.ok(m, `${format} figures printed`);
    if (!m) continue;
    const [, rate, seconds, , rss] = m.map(Number) as number[];
    t.ok(rate! > 0 && seconds! > 0, `${format}: ${rate} rows/s`);
    // The seconds are printed to 10 ms and the rate to a whole row.
    t.ok(
      rate! >= Math.floor(SUB_TASKS / (seconds! + 0.005)) &&
        rate! <= Math.ceil(SUB_TASKS / Math.max(seconds! - 0.005, 0.001)),
      `${rate} rows/s = ${SUB_TASKS} rows / ${seconds} s`,
    );
    t.ok(rss! > 0);
  }
});
