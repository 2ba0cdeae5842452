/**
 * The pooled two-proportion z-test: did a mention rate change between two runs
 * by more than sampling noise explains? Significant at 95 % (two-sided) when
 * |z| > 1.96. Intervals that do not overlap imply significance, but not the
 * reverse, so a change rule asks for either.
 */
import { Z95 } from './wilson.js';

export interface TwoProportionTest {
  /** (p2 - p1) / pooled standard error; 0 when it is undefined (no variation or no data). */
  z: number;
  significant: boolean;
}

export function twoProportionTest(
  successes1: number,
  n1: number,
  successes2: number,
  n2: number,
): TwoProportionTest {
  if (n1 === 0 || n2 === 0) return { z: 0, significant: false };
  const pooled = (successes1 + successes2) / (n1 + n2);
  const variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2);
  // Both runs all-yes or all-no: nothing moved.
  if (variance === 0) return { z: 0, significant: false };
  const z = (successes2 / n2 - successes1 / n1) / Math.sqrt(variance);
  return { z, significant: Math.abs(z) > Z95 };
}
