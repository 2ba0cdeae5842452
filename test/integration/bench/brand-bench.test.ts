/**
 * A tiny run of `npm run bench:brand`, so that a benchmark that breaks fails
 * the suite: 50 timed runs of brandFields and visibilityOf over 200 sub
 * tasks, in a child process. It checks that the figures are printed and
 * sane, not that they meet their targets (a busy machine decides those),
 * except the corpus precision, which no load changes.
 * Beside it, the other benchmark of pure computation in a child process: the
 * calls adaptive sampling of monitors saves (bench/monitor-sampling.bench.ts).
 */
import t from 'tap';
import { runProcess } from '../../../infra/processes.js';

const number = (text: string, re: RegExp): number => {
  const m = re.exec(text);
  if (!m) throw new Error(`no ${re} in the bench's output:\n${text}`);
  return Number(m[1]);
};

t.test('the brand benchmark runs and prints its figures', async (t) => {
  const { code, output: out } = await runProcess(
    'bench/brand.bench.ts',
    ['--runs', '50', '--warmup', '10', '--subtasks', '200'],
    {},
  );
  t.equal(code, 0, 'exits 0');
  t.match(out, /^== brand visibility \(services\/shared\/brand\), node v\d+/m);
  const chars = number(out, /^answer: (\d+) characters/m);
  t.ok(chars >= 10_000 && chars < 11_000, `${chars} characters`);
  t.match(out, /10 groups × 3 aliases \(5 with a CJK alias\), 20 references/);

  const p50 = number(
    out,
    /^1\) brandFields per sub task over 50 runs after 10 warm-up: p50 ([\d.]+) ms/m,
  );
  const p90 = number(out, /, p90 ([\d.]+) ms/m);
  t.ok(p50 > 0 && p90 >= p50 && p90 < 1000, `p50 ${p50} ms, p90 ${p90} ms`);
  t.match(out, /\(target: p50 < 1 ms\) (PASS|FAIL)$/m);
  const cpu = number(out, /^ {3}CPU time per run ([\d.]+) ms/m);
  t.ok(cpu > 0 && cpu < 1000, `CPU ${cpu} ms per run`);
  t.match(out, /^ {3}10 of 10 groups mentioned, \d+ mentions/m);

  const total = number(out, /^2\) visibilityOf over 200 sub tasks: ([\d.]+) ms total/m);
  t.ok(total > 0 && total < 10_000, `${total} ms`);
  t.match(out, /\d+ ms per sub task\); 70 rows, 7 platform domain lists$/m);

  const precision = number(
    out,
    /^3\) discovered brands on the labeled corpus .*: precision ([\d.]+)/m,
  );
  t.ok(precision >= 0.9, `corpus precision ${precision}`);
  t.match(
    out,
    /^5\) insights watching 5 of 10 brands: [1-9]\d* discovered brands, [1-9]\d* opportunity domains; a final task's read with its stored insights identical to the live sum$/m,
  );
  const finalRead = number(
    out,
    /^ {3}read of a final task .*: ([\d.]+) ms against [\d.]+ ms without/m,
  );
  const base = number(out, /^ {3}read of a final task .*: [\d.]+ ms against ([\d.]+) ms without/m);
  t.ok(finalRead > 0 && base > 0, `${finalRead} ms with the stored insights, ${base} ms without`);
  t.match(out, /^ {3}read of a final task .*: [+-][\d.]+ % \(target: < 10 %\) (PASS|FAIL)$/m);
  const running = number(out, /^ {3}read of a running task .*: ([\d.]+) ms against/m);
  t.ok(running > 0, `${running} ms summing them on a running task's read`);
  t.match(
    out,
    /^ {3}at the finish, once per task: the sum stored with the final status [\d.]+ ms CPU/m,
  );
});

t.test('the adaptive-sampling benchmark prints the calls asked against a fixed max', async (t) => {
  const { code, output: out } = await runProcess(
    'bench/monitor-sampling.bench.ts',
    ['--prompts', '7', '--min', '5', '--max', '12', '--target-width', '0.45'],
    {},
  );
  t.equal(code, 0, 'exits 0');
  t.match(out, /^cells: 7 prompts × 2 modes = 14, samples \{min 5, max 12, targetWidth 0.45\}/m);
  // Stable cells (#vary:100 and #vary:0) stop at min: 5 × 4 asks at the least.
  t.match(out, /^ {3}#vary:100: 2 cells, 5\.0 samples per cell$/m);
  t.match(out, /^ {3}#vary:0: 2 cells, 5\.0 samples per cell$/m);
  const asked = number(out, /^asked (\d+) of 168 at a fixed max \(14 cells × 12\)/m);
  t.ok(asked >= 70 && asked < 168, `${asked} asked: more than min everywhere, less than max`);
  const ratio = number(out, /ratio ([\d.]+), \d+ calls saved$/m);
  t.equal(ratio, Number((asked / 168).toFixed(3)));
});
