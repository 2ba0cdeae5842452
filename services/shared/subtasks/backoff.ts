/** Retry backoff, pure: exponential from `baseMs`, capped at `maxMs`, with optional jitter. */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** 0..1: the share of the delay that is randomised (0 = deterministic). */
  jitter: number;
}

export function backoffDelay(
  attempt: number,
  o: BackoffOptions,
  random: () => number = Math.random,
): number {
  const exp = Math.min(o.maxMs, o.baseMs * 2 ** Math.max(0, attempt - 1));
  const spread = exp * o.jitter;
  return Math.round(exp - spread + spread * random());
}
