/**
 * The Wilson score interval of a proportion at 95 %: every mention rate a
 * monitor reports carries it. Unlike the normal (Wald) interval it stays inside
 * [0, 1] and keeps its width at 0 or n successes, where small samples live.
 */

/** The two-sided 95 % normal quantile. */
export const Z95 = 1.959963984540054;

export interface Proportion {
  /** successes / n; 0 when n is 0. */
  value: number;
  lower: number;
  upper: number;
  n: number;
}

export function wilson(successes: number, n: number, z: number = Z95): Proportion {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes)) {
    throw new RangeError(`wilson needs whole counts, got ${successes}/${n}`);
  }
  if (successes < 0 || successes > n) {
    throw new RangeError(`wilson needs 0 <= successes <= n, got ${successes}/${n}`);
  }
  // No observation: the rate could be anything.
  if (n === 0) return { value: 0, lower: 0, upper: 1, n: 0 };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 or n successes the bound is exactly 0 or 1; rounding would miss it by a hair.
  return {
    value: p,
    lower: successes === 0 ? 0 : centre - half,
    upper: successes === n ? 1 : centre + half,
    n,
  };
}

/** upper - lower: how far the figure can still be trusted. */
export function width(p: Proportion): number {
  return p.upper - p.lower;
}

/** Two intervals that share no point: the simplest "larger than the noise". */
export function disjoint(a: Proportion, b: Proportion): boolean {
  return a.upper < b.lower || b.upper < a.lower;
}
