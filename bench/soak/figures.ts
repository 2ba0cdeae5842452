/**
 * The soak's arithmetic, apart from any I/O: the least-squares slope of a
 * series (memory in MB per hour), the growth of a series after the warm-up,
 * and which platform answers were given twice for one sub task and whether a
 * kill explains them.
 */

export interface Point {
  /** Epoch ms. */
  at: number;
  value: number;
}

/** Least-squares slope of value over time, per hour (NaN with fewer than 2 distinct times). */
export function slopePerHour(points: readonly Point[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const hours = points.map((p) => p.at / 3_600_000);
  const mx = hours.reduce((a, b) => a + b, 0) / n;
  const my = points.reduce((a, p) => a + p.value, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    const dx = hours[i]! - mx;
    sxy += dx * (points[i]!.value - my);
    sxx += dx * dx;
  }
  return sxx === 0 ? NaN : sxy / sxx;
}

/** First and last value, and the largest (NaN when empty). */
export function span(points: readonly Point[]): { first: number; last: number; max: number } {
  if (points.length === 0) return { first: NaN, last: NaN, max: NaN };
  return {
    first: points[0]!.value,
    last: points[points.length - 1]!.value,
    max: Math.max(...points.map((p) => p.value)),
  };
}

/** The warm-up: a fifth of the run, at most 5 minutes (the JIT and the caches fill in it). */
export const warmupMs = (runMs: number): number => Math.min(5 * 60_000, runMs / 5);

/** What the platform saw of one sub task, and what the database counted. */
export interface Asked {
  /** Which sub task: its channel and prompt (every prompt of the soak is unique). */
  key: string;
  /** When each request the platform answered (no injected failure) arrived, epoch ms. */
  answeredAt: number[];
  /** Every platform request for it, failed ones included. */
  requests: number;
  /** Its attempts as the database counted them. */
  attempts: number;
}

export interface Doubles {
  /** Sub tasks answered more than once. */
  twice: number;
  /** Of those: the earlier answer was asked before a kill (within the window) and lost with the node. */
  byKill: number;
  /** Of those: asked again as a counted attempt after its lease ran out (a slow node, not a kill). */
  reLeased: number;
  /** Sub tasks the platform was asked more often than the database counted attempts: a real double. */
  unexplained: string[];
}

/**
 * Sub tasks the platform answered twice, and why. A node killed with -9 loses
 * the answers it was still reporting, and a lease that runs out on an
 * overloaded node is handed to another: either way the second ask is one more
 * counted attempt, which is no fault. A platform request that no attempt
 * accounts for is one (the fault tests' rule).
 */
export function doubles(subs: readonly Asked[], kills: readonly number[], windowMs: number) {
  const out: Doubles = { twice: 0, byKill: 0, reLeased: 0, unexplained: [] };
  for (const s of subs) {
    if (s.requests > s.attempts) {
      out.unexplained.push(s.key);
      continue;
    }
    if (s.answeredAt.length < 2) continue;
    out.twice++;
    const earlier = [...s.answeredAt].sort((a, b) => a - b).slice(0, -1);
    if (earlier.every((at) => kills.some((k) => at <= k && k - at <= windowMs))) out.byKill++;
    else out.reLeased++;
  }
  return out;
}

/** Megabytes, from bytes. */
export const mb = (bytes: number): number => bytes / 1024 / 1024;
