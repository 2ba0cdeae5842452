/**
 * How many times a cell (one prompt on one platform, channel and mode) is asked
 * in a run. `samples` is a fixed count, or `{min, max, targetWidth}`: the cell is
 * asked `min` times, then in follow-up rounds while its mention rate's 95 %
 * Wilson interval is wider than `targetWidth`, up to `max`. A unanimous cell's
 * width after n samples is z^2 / (n + z^2) (0.43 at 5, 0.28 at 10, 0.16 at 20),
 * so a target below that width at `min` asks more even of a stable cell.
 */
import { width, wilson, Z95 } from './wilson.js';

export const MAX_SAMPLES = 20;

export interface AdaptiveSamples {
  min: number;
  max: number;
  targetWidth: number;
}

export type Samples = number | AdaptiveSamples;

/** The samples every cell takes in a run's first round. */
export function firstRound(samples: Samples): number {
  return typeof samples === 'number' ? samples : samples.min;
}

/** The most a cell can take: the fixed count a run would spend without adapting. */
export function ceiling(samples: Samples): number {
  return typeof samples === 'number' ? samples : samples.max;
}

/** The interval a cell is held to; null: a fixed count, no target. */
export function targetWidthOf(samples: Samples): number | null {
  return typeof samples === 'number' ? null : samples.targetWidth;
}

export interface CellTally {
  /** Samples with an answer, the n of the rate. */
  answered: number;
  /** Of those, answers that mention the brand. */
  mentioned: number;
}

/**
 * The Wilson width at rate `p` after `n` answers, for a fractional count too:
 * what the interval would be if later answers kept the rate seen so far.
 */
export function projectedWidth(p: number, n: number, z: number = Z95): number {
  const z2 = z * z;
  return ((2 * z) / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
}

/**
 * The samples a cell takes in its next round; 0: it is done. Only adaptive
 * cells under `max` whose interval is still wider than the target go on. A
 * round asks at once what the rate seen so far projects the target needs
 * (at least one, at most up to `max`), so a cell takes few rounds; the next
 * round corrects a projection the new answers moved. A cell none of whose
 * samples answered is not asked more: its platform fails, and more asks
 * would spend calls on failures.
 */
export function moreSamples(samples: Samples, tally: CellTally, asked: number): number {
  if (typeof samples === 'number' || asked >= samples.max) return 0;
  if (asked < samples.min) return samples.min - asked;
  if (tally.answered === 0) return 0;
  if (width(wilson(tally.mentioned, tally.answered)) <= samples.targetWidth) return 0;
  const rate = tally.mentioned / tally.answered;
  const room = samples.max - asked;
  let more = 1;
  while (more < room && projectedWidth(rate, tally.answered + more) > samples.targetWidth) more++;
  return more;
}
