/**
 * Lease math, pure. A lease is a random token plus an expiry on the sub task;
 * the holder renews it at half its length, and every write is guarded by the
 * token, so a result from an expired lease can never be recorded.
 */
import { randomBytes } from 'node:crypto';

export interface Lease {
  token: string;
  expiresAt: number;
}

export function newLease(now: number, durationMs: number): Lease {
  return { token: randomBytes(16).toString('hex'), expiresAt: now + durationMs };
}

export function renewalInterval(durationMs: number): number {
  return Math.max(1, Math.floor(durationMs / 2));
}

export function isExpired(expiresAt: number | null | undefined, now: number): boolean {
  return expiresAt !== null && expiresAt !== undefined && expiresAt <= now;
}
