/**
 * The 95 % interval of a difference of two independent proportions, p1 - p2,
 * by Newcombe's hybrid score method (method 10 of Newcombe 1998): it combines
 * the two Wilson intervals, so it costs nothing beyond them, keeps inside
 * [-1, 1] and behaves at 0 and n successes, where the Wald interval of a
 * difference fails. Newcombe's own example, 56/70 - 48/80, gives
 * 0.2 [0.0524, 0.3339].
 */
import type { Proportion } from './wilson.js';

export interface Difference {
  value: number;
  lower: number;
  upper: number;
}

export function newcombe(a: Proportion, b: Proportion): Difference {
  const value = a.value - b.value;
  return {
    value,
    lower: value - Math.hypot(a.value - a.lower, b.upper - b.value),
    upper: value + Math.hypot(a.upper - a.value, b.value - b.lower),
  };
}
