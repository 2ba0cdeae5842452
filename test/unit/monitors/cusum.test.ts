import t from 'tap';
import { cusum, type RatePoint } from '../../../services/monitors/figures/cusum.js';
import { twoProportionTest } from '../../../services/monitors/figures/two-proportion.js';

const of20 = (counts: number[]): RatePoint[] => counts.map((successes) => ({ successes, n: 20 }));

t.test('a slow decline that no single step shows is flagged', async (t) => {
  // Five runs at 10/20 (p0 = 0.5, one standard error 0.1118), then one fewer mention now and then.
  const series = of20([10, 10, 10, 10, 10, 9, 8, 8, 7, 7, 6, 6]);
  for (let i = 1; i < series.length; i++) {
    const step = twoProportionTest(series[i - 1]!.successes, 20, series[i]!.successes, 20);
    t.notOk(step.significant, `step ${i} alone is noise`);
  }
  const result = cusum(series);
  t.equal(result.baseline, 0.5);
  // By hand: lower sums 0, 0.394, 0.789, 1.630, 2.472, 3.761, 5.050 (> 4 at run 11).
  t.strictSame(
    result.lower.map((v) => Math.round(v * 1000) / 1000),
    [0, 0, 0, 0, 0, 0, 0.394, 0.789, 1.63, 2.472, 3.761, 5.05],
  );
  t.equal(result.signals.length, 1);
  t.equal(result.signals[0]!.index, 11);
  t.equal(result.signals[0]!.direction, 'down');
  t.ok(Math.abs(result.signals[0]!.statistic - 5.0498) < 1e-3);
  t.ok(
    result.upper.every((v) => v === 0),
    'no upward sum',
  );
});

t.test('a stable series with noise raises nothing', async (t) => {
  const result = cusum(of20([10, 11, 9, 10, 10, 11, 9, 10, 12, 8, 10, 11, 9, 10]));
  t.strictSame(result.signals, []);
});

t.test('a rise is flagged upward, and a baseline of 0 still works', async (t) => {
  // p0 is taken as half a mention in the baseline's 100 answers: 1/20 is then z = 2.85.
  const result = cusum(of20([0, 0, 0, 0, 0, 1, 1, 0, 0]));
  t.equal(result.baseline, 0);
  t.strictSame(
    result.signals.map((s) => [s.index, s.direction]),
    [[6, 'up']],
  );
  t.equal(result.upper[7], 0, 'the sums restart after a signal');
});

t.test('too short a series has no baseline; runs without answers leave the sums', async (t) => {
  t.strictSame(cusum(of20([10, 10])), {
    baseline: null,
    upper: [0, 0],
    lower: [0, 0],
    signals: [],
  });
  const gap = cusum([...of20([10, 10, 10, 10, 10, 6]), { successes: 0, n: 0 }]);
  t.equal(gap.lower[6], gap.lower[5]);
});
