/**
 * The delivery schedule of a completion callback (spec 6.4), pure: the first
 * attempt at once, then one retry per configured delay, then FAILED. Time is
 * passed in, so the schedule can be checked to the millisecond.
 */
export const DELIVERY_STATUSES = ['PENDING', 'SENDING', 'SUCCEEDED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type Verdict =
  { status: 'SUCCEEDED' } | { status: 'PENDING'; nextAttemptAt: number } | { status: 'FAILED' };

/** The first attempt plus one per retry delay. */
export function maxAttempts(retryDelaysMs: readonly number[]): number {
  return retryDelaysMs.length + 1;
}

/** Spec 6.4: 200-299 is success; everything else, redirects included, is a failure. */
export function isSuccess(httpStatus: number | null): boolean {
  return httpStatus !== null && httpStatus >= 200 && httpStatus < 300;
}

/**
 * What follows attempt number `attempt` (1 = the first) that ended at `endedAt`.
 * A retry is counted from the end of the failed attempt, so a slow receiver
 * still gets the whole pause before the next try.
 */
export function afterAttempt(
  attempt: number,
  succeeded: boolean,
  endedAt: number,
  retryDelaysMs: readonly number[],
): Verdict {
  if (succeeded) return { status: 'SUCCEEDED' };
  const delay = retryDelaysMs[attempt - 1];
  return delay === undefined
    ? { status: 'FAILED' }
    : { status: 'PENDING', nextAttemptAt: endedAt + delay };
}

/** Whether a delivery should be attempted now: waiting and due, or its sender's lease lapsed. */
export function isDue(
  d: { status: DeliveryStatus; nextAttemptAt: number | null; leaseExpiresAt: number | null },
  now: number,
): boolean {
  if (d.status === 'PENDING') return d.nextAttemptAt !== null && d.nextAttemptAt <= now;
  if (d.status === 'SENDING') return d.leaseExpiresAt !== null && d.leaseExpiresAt <= now;
  return false;
}

/**
 * How long a claimed attempt is held. An attempt is aborted after connect +
 * read timeout, so the margin only covers building the body and recording the
 * outcome; past it, another instance takes the delivery over.
 */
export function attemptLeaseMs(connectTimeoutMs: number, readTimeoutMs: number): number {
  return connectTimeoutMs + readTimeoutMs + 15_000;
}
