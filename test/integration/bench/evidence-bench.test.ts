/**
 * A tiny run of the evidence bundle benchmark (bench/evidence.bench.ts)
 * against the test server, so that a benchmark that breaks fails the suite:
 * 20 sub tasks, one round. It checks that the figures are printed and
 * consistent, not their size (a busy machine decides those).
 */
import t from 'tap';
import { startProcess } from '../../../infra/processes.js';
import { mongoUrl } from '../../helpers/servers.js';

const SUB_TASKS = 20;
const SINGLE = 5;

t.test('the evidence benchmark runs end to end and prints its figures', async (t) => {
  const bench = startProcess(
    'bench/evidence.bench.ts',
    [
      '--subtasks',
      String(SUB_TASKS),
      '--rounds',
      '1',
      '--frames',
      '5000',
      '--single',
      String(SINGLE),
    ],
    { BENCH_MONGO_URL: mongoUrl() },
  );
  const killer = setTimeout(() => void bench.stop('SIGKILL'), 100_000);
  const code = await bench.exited;
  clearTimeout(killer);
  const out = bench.output();
  t.equal(code, 0, 'exits 0', { out });
  t.match(
    out,
    new RegExp(`^== evidence bundles of ${SUB_TASKS} sub tasks \\(seeded in [\\d.]+ s\\)`, 'm'),
  );
  const whole = new RegExp(
    `^whole task: (\\d+) sub tasks per second \\(${SUB_TASKS} in ([\\d.]+) s, [\\d.]+ MB\\), peak RSS \\d+ MB$`,
    'm',
  ).exec(out);
  const single = new RegExp(
    `^one by one: (\\d+) sub tasks per second \\(${SINGLE} bundles in ([\\d.]+) s\\)$`,
    'm',
  ).exec(out);
  for (const [name, m, n] of [
    ['whole task', whole, SUB_TASKS],
    ['one by one', single, SINGLE],
  ] as const) {
    t.ok(m, `${name} figures printed`);
    if (!m) continue;
    const rate = Number(m[1]);
    const seconds = Number(m[2]);
    // The seconds are printed to 10 ms and the rate to a whole sub task.
    t.ok(
      rate >= Math.floor(n / (seconds + 0.005)) &&
        rate <= Math.ceil(n / Math.max(seconds - 0.005, 0.001)),
      `${name}: ${rate}/s = ${n} / ${seconds} s`,
    );
  }
});
