/**
 * The token-and-expiry claim, one pattern for every document a process holds
 * for a while: a sub task leased to a crawler node, a callback delivery being
 * sent, the scheduler's leader lock. Taking a claim writes a fresh token, the
 * holder and an expiry in one guarded single-document update; every later
 * write of the holder is guarded by the token, so a holder that lost the claim
 * (expired, taken over, handed back) changes nothing. A claim is renewed at
 * half its length. Pure: these build the filters and updates; stores run them.
 */
import { randomBytes } from 'node:crypto';

/** The document fields a claim lives in. */
export interface ClaimFields {
  token: string;
  holder: string;
  expiresAt: string;
}

/** Sub tasks and deliveries: `leaseToken`, `leaseNode`, `leaseExpiresAt`. */
export const LEASE_FIELDS = {
  token: 'leaseToken',
  holder: 'leaseNode',
  expiresAt: 'leaseExpiresAt',
} as const satisfies ClaimFields;

export interface Lease {
  token: string;
  expiresAt: number;
}

export function newToken(): string {
  return randomBytes(16).toString('hex');
}

export function newLease(now: number, durationMs: number): Lease {
  return { token: newToken(), expiresAt: now + durationMs };
}

export function renewalInterval(durationMs: number): number {
  return Math.max(1, Math.floor(durationMs / 2));
}

export function isExpired(expiresAt: number | null | undefined, now: number): boolean {
  return expiresAt !== null && expiresAt !== undefined && expiresAt <= now;
}

type Fields = Record<string, unknown>;
type Freed<F extends ClaimFields> = { [K in F['token'] | F['holder'] | F['expiresAt']]: null };

/** The filters and `$set`s of one kind of claim, by its field names. */
export interface Claims<F extends ClaimFields> {
  /** `$set` that takes the claim. */
  take(token: string, holder: string, expiresAt: number): Fields;
  /** `$set` that extends it. */
  extend(expiresAt: number): Fields;
  /** `$set` that frees it. */
  free(): Freed<F>;
  /** Filter: still held under this token. */
  heldWith(token: string): Fields;
  /** Filter: its expiry has passed. */
  lapsed(now: number): Fields;
  /** Filter: held with this token already, or lapsed (re-entrant take, e.g. a leader renewing). */
  takeable(token: string, now: number): Fields;
}

export function claims<const F extends ClaimFields>(f: F): Claims<F> {
  const lapsed = (now: number) => ({ [f.expiresAt]: { $lte: now } });
  return {
    take: (token, holder, expiresAt) => ({
      [f.token]: token,
      [f.holder]: holder,
      [f.expiresAt]: expiresAt,
    }),
    extend: (expiresAt) => ({ [f.expiresAt]: expiresAt }),
    free: () => ({ [f.token]: null, [f.holder]: null, [f.expiresAt]: null }) as Freed<F>,
    heldWith: (token) => ({ [f.token]: token }),
    lapsed,
    takeable: (token, now) => ({ $or: [{ [f.token]: token }, lapsed(now)] }),
  };
}

/** The lease of a sub task or a delivery. */
export const leases = claims(LEASE_FIELDS);
