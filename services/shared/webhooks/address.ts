/**
 * Whether a callback address may be used: an http(s) URL whose host is, or
 * resolves to, only addresses the policy allows. Checked when an address is
 * given (submission, default address) and again when connecting, through a
 * lookup that refuses what it resolves, so a DNS answer that changed in
 * between (rebinding) cannot reach an internal address.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { z } from 'zod';
import { AppError, type FieldProblem } from '../errors.js';
import { zodProblems } from '../validation.js';
import { callbackUrlSchema } from '../requests/submission.js';
import { AddressPolicy, ipLiteral } from './ssrf.js';

/** A submission should not wait long on DNS; a name that does not resolve yet is checked at delivery. */
const SUBMISSION_DNS_TIMEOUT_MS = 2_000;

export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

/** Why the URL may not be used as a callback address, or undefined when it may. */
export async function refusedAddress(
  url: string,
  policy: AddressPolicy,
  resolve: Resolve = systemResolve,
): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return 'must be an absolute http:// or https:// URL';
  }
  const literal = ipLiteral(parsed.hostname);
  if (literal) {
    const range = policy.refusal(literal);
    return range && `must not point to a ${range} address (${literal})`;
  }
  // RFC 6761: localhost names are loopback whatever DNS says (or fails to say).
  if (/(^|\.)localhost\.?$/i.test(parsed.hostname) && policy.refusal('127.0.0.1')) {
    return `must not point to a loopback address (${parsed.hostname})`;
  }
  const addresses = await withTimeout(resolve(parsed.hostname), SUBMISSION_DNS_TIMEOUT_MS).catch(
    () => [],
  );
  for (const { address } of addresses) {
    const range = policy.refusal(address);
    if (range) return `must not point to a ${range} address (${parsed.hostname} is ${address})`;
  }
  return undefined;
}

/**
 * The callbackUrl of a raw submission body, as a field problem when it is a
 * well-formed http(s) URL that is refused (malformed ones are reported by the
 * submission schema).
 */
export async function refusedCallbackField(
  body: unknown,
  policy: AddressPolicy,
): Promise<FieldProblem | undefined> {
  const url = (body as { callbackUrl?: unknown } | null)?.callbackUrl;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return undefined;
  const message = await refusedAddress(url, policy);
  return message ? { field: 'callbackUrl', message } : undefined;
}

/** `PUT /api/business/monitor/callback`: the user's default address; null clears it. */
export const defaultCallbackSchema = z
  .object({
    callbackUrl: callbackUrlSchema.nullable().meta({
      description: 'Used for tasks submitted without callbackUrl; null removes it',
    }),
  })
  .meta({ id: 'DefaultCallback' });

/** The checked default address of a request body, or a 400 listing what is wrong. */
export async function checkDefaultCallback(
  body: unknown,
  policy: AddressPolicy,
): Promise<string | null> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw AppError.invalid([{ field: 'body', message: 'must be a JSON object with callbackUrl' }]);
  }
  const parsed = defaultCallbackSchema.safeParse(body);
  if (!parsed.success) {
    const problems = zodProblems(parsed.error).map((p) =>
      p.field === 'callbackUrl' && !('callbackUrl' in body)
        ? { field: 'callbackUrl', message: 'is required (null removes the default address)' }
        : p,
    );
    throw AppError.invalid(problems);
  }
  const url = parsed.data.callbackUrl;
  const refused = url === null ? undefined : await refusedAddress(url, policy);
  if (refused) throw AppError.invalid([{ field: 'callbackUrl', message: refused }]);
  return url;
}

export class RefusedAddressError extends Error {
  readonly code = 'CALLBACK_ADDRESS_REFUSED';
}

/**
 * A `lookup` for the connection itself: resolves once, refuses the whole
 * answer if any address is refused, and hands the checked addresses to the
 * socket, which connects to them without resolving again.
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const refused = addresses
        .map((a) => ({ a, range: policy.refusal(a.address) }))
        .find((r) => r.range);
      if (refused) {
        const message = `address refused: ${hostname} resolves to a ${refused.range} address (${refused.a.address})`;
        return callback(new RefusedAddressError(message), '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
