/**
 * A tabular CUSUM on a mention-rate series: it flags a slow drift that no
 * single step between runs shows. The baseline is the pooled rate of the first
 * runs; each later run adds its standardised deviation
 * z = (p - p0) / sqrt(p0 (1 - p0) / n) less a slack k to the upper sum (and
 * -z - k to the lower one), a sum never below 0. A sum past h signals a drift
 * at that run, and both sums restart from 0. k = 0.5 and h = 4 (in standard
 * errors) are the textbook choice: they detect a one-standard-error shift in
 * about 8 runs, with a false alarm about once in 170 runs of a stable rate.
 */

export interface RatePoint {
  successes: number;
  n: number;
}

export interface CusumOptions {
  /** Runs pooled into the baseline rate; the sums start after them. */
  baselineRuns: number;
  /** Slack per run, in standard errors. */
  k: number;
  /** Decision threshold, in standard errors. */
  h: number;
}

export const CUSUM_DEFAULTS: CusumOptions = { baselineRuns: 5, k: 0.5, h: 4 };

export interface DriftSignal {
  /** The run (index into the series) at which the sum crossed h. */
  index: number;
  direction: 'up' | 'down';
  /** The sum that crossed. */
  statistic: number;
}

export interface Cusum {
  /** The baseline rate; null while the series is shorter than the baseline. */
  baseline: number | null;
  /** Per run, the upper and lower sums (0 within the baseline). */
  upper: number[];
  lower: number[];
  signals: DriftSignal[];
}

export function cusum(series: readonly RatePoint[], options: Partial<CusumOptions> = {}): Cusum {
  const { baselineRuns, k, h } = { ...CUSUM_DEFAULTS, ...options };
  const upper = series.map(() => 0);
  const lower = series.map(() => 0);
  const base = series.slice(0, baselineRuns);
  const baseN = base.reduce((s, p) => s + p.n, 0);
  if (series.length < baselineRuns || baseN === 0) {
    return { baseline: null, upper, lower, signals: [] };
  }
  const baseline = base.reduce((s, p) => s + p.successes, 0) / baseN;
  // A baseline of exactly 0 or 1 has no spread; half an observation keeps z finite.
  const p0 = Math.min(Math.max(baseline, 0.5 / baseN), 1 - 0.5 / baseN);
  const signals: DriftSignal[] = [];
  let up = 0;
  let down = 0;
  for (let i = baselineRuns; i < series.length; i++) {
    const { successes, n } = series[i]!;
    if (n > 0) {
      const z = (successes / n - p0) / Math.sqrt((p0 * (1 - p0)) / n);
      up = Math.max(0, up + z - k);
      down = Math.max(0, down - z - k);
    }
    upper[i] = up;
    lower[i] = down;
    if (up > h || down > h) {
      const direction = up > h ? 'up' : 'down';
      signals.push({ index: i, direction, statistic: direction === 'up' ? up : down });
      up = 0;
      down = 0;
    }
  }
  return { baseline, upper, lower, signals };
}
