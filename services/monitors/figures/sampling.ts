/**
 * How many times a cell (one prompt on one platform, channel and mode) is asked
 * in a run. `samples` is a fixed count, or `{min, max, targetWidth}`: the cell is
 * asked `min` times, then once more at a time while its mention rate's 95 %
 * Wilson interval is wider than `targetWidth`, up to `max`. A unanimous cell's
 * width after n samples is z^2 / (n + z^2) (0.43 at 5, 0.28 at 10, 0.16 at 20),
 * so a target below that width at `min` asks more even of a stable cell.
 */
import { width, wilson } from './wilson.js';

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

export interface CellTally {
  /** Samples with an answer, the n of the rate. */
  answered: number;
  /** Of those, answers that mention the brand. */
  mentioned: number;
}

/** Whether a cell needs one more sample: only adaptive cells, under `max`, still too wide. */
export function wantsMore(samples: Samples, tally: CellTally, asked: number): boolean {
  if (typeof samples === 'number' || asked >= samples.max) return false;
  if (asked < samples.min) return true;
  return width(wilson(tally.mentioned, tally.answered)) > samples.targetWidth;
}

/** What a run reports per cell about its sampling. */
export interface SamplingOutcome {
  taken: number;
  /** The Wilson width the cell's rate reached. */
  width: number;
  /** Platform calls saved against asking `max` (0 for a fixed count). */
  saved: number;
}

export function samplingOutcome(
  samples: Samples,
  tally: CellTally,
  asked: number,
): SamplingOutcome {
  return {
    taken: asked,
    width: width(wilson(tally.mentioned, tally.answered)),
    saved: Math.max(0, ceiling(samples) - asked),
  };
}
