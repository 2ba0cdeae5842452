/** How the benchmark's reports write seconds, distributions, status counts and retries. */
import { percentile } from '../common.js';
import type { PhaseResult } from './load.js';

export const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
export const dist = (v: readonly number[]) =>
  `p50 ${percentile(v, 50).toFixed(0)} ms, p90 ${percentile(v, 90).toFixed(0)} ms, max ${(v[v.length - 1] ?? NaN).toFixed(0)} ms`;
export const fmtCounts = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';
export const outcomeLine = (p: PhaseResult) =>
  `retried sub tasks ${p.retried}${p.errors.length ? `; errors: ${p.errors.join(' | ')}` : ''}`;
