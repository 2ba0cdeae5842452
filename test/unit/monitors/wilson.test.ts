import t, { type Test } from 'tap';
import { disjoint, width, wilson } from '../../../services/monitors/figures/wilson.js';
import { twoProportionTest } from '../../../services/monitors/figures/two-proportion.js';
import { newcombe } from '../../../services/monitors/figures/newcombe.js';

const close = (t: Test, actual: number, expected: number, what: string) =>
  t.ok(Math.abs(actual - expected) < 5e-7, `${what}: ${actual} ≈ ${expected}`);

t.test('Wilson 95 % intervals match the published values', async (t) => {
  // Reference values: R, binom::binom.confint(x, n, method = "wilson").
  const vectors: [number, number, number, number][] = [
    [0, 10, 0, 0.2775328],
    [5, 10, 0.2365931, 0.7634069],
    [8, 10, 0.4901625, 0.9433178],
    [10, 10, 0.7224672, 1],
  ];
  for (const [x, n, lower, upper] of vectors) {
    const p = wilson(x, n);
    t.equal(p.value, x / n);
    t.equal(p.n, n);
    close(t, p.lower, lower, `${x}/${n} lower`);
    close(t, p.upper, upper, `${x}/${n} upper`);
  }
  t.strictSame(wilson(0, 0), { value: 0, lower: 0, upper: 1, n: 0 }, 'no observation: anything');
  close(t, width(wilson(5, 5)), 3.8414588 / (5 + 3.8414588), 'a unanimous cell: z²/(n+z²)');
  t.throws(() => wilson(3, 2), RangeError);
  t.throws(() => wilson(1.5, 2), RangeError);
});

t.test('disjoint intervals', async (t) => {
  t.ok(disjoint(wilson(0, 20), wilson(20, 20)));
  t.notOk(disjoint(wilson(5, 10), wilson(8, 10)));
});

t.test('the two-proportion z-test matches the chi-squared test', async (t) => {
  // R: prop.test(c(50, 30), c(100, 100), correct = FALSE) gives X-squared = 8.3333 = z².
  const big = twoProportionTest(50, 100, 30, 100);
  close(t, big.z * big.z, 8.333333, 'z² of 50/100 vs 30/100');
  t.ok(big.z < 0, 'a fall is negative');
  t.ok(big.significant);
  // prop.test(c(50, 40), c(100, 100), correct = FALSE): X-squared = 2.0202, p = 0.155.
  const small = twoProportionTest(50, 100, 40, 100);
  close(t, small.z * small.z, 2.020202, 'z² of 50/100 vs 40/100');
  t.notOk(small.significant);
  t.strictSame(twoProportionTest(10, 10, 10, 10), { z: 0, significant: false }, 'no spread');
  t.strictSame(twoProportionTest(0, 0, 3, 10), { z: 0, significant: false }, 'no data');
});

t.test("Newcombe's hybrid score interval of a difference", async (t) => {
  // Newcombe (1998), Statistics in Medicine 17:873, table II, example (a): 56/70 - 48/80.
  const d = newcombe(wilson(56, 70), wilson(48, 80));
  close(t, d.value, 0.2, 'difference');
  t.ok(Math.abs(d.lower - 0.0524) < 5e-5, `lower ${d.lower} ≈ 0.0524`);
  t.ok(Math.abs(d.upper - 0.3339) < 5e-5, `upper ${d.upper} ≈ 0.3339`);
  // Example (h): 10/10 - 0/10 stays inside [-1, 1].
  const all = newcombe(wilson(10, 10), wilson(0, 10));
  t.equal(all.value, 1);
  t.ok(Math.abs(all.lower - 0.6075) < 5e-5, `lower ${all.lower} ≈ 0.6075`);
  t.equal(all.upper, 1);
});
