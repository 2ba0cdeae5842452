/**
 * The Idempotency-Key of a submission (IETF draft-ietf-httpapi-idempotency-key-header):
 * a client that retries a POST after a timeout or a 503 cannot know whether the
 * first try was taken. With the same key, the retry gets the task the first try
 * created, never a second task (a second run of every prompt and a second
 * callback). Pure: the key's rule and the fingerprint of a request body.
 */
import { createHash } from 'node:crypto';
import type { FieldProblem } from '../errors.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const MAX_KEY_LENGTH = 255;
/** Printable ASCII without spaces at the ends: what a header carries unchanged. */
export const KEY_PATTERN = '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$';
const KEY = new RegExp(KEY_PATTERN);

/** The key, or the problem with it; undefined when the request has none. */
export function checkIdempotencyKey(
  value: string | undefined,
): { key: string } | { problem: FieldProblem } | undefined {
  if (value === undefined) return undefined;
  if (value.length === 0 || value.length > MAX_KEY_LENGTH || !KEY.test(value)) {
    return {
      problem: {
        field: IDEMPOTENCY_HEADER,
        message: `must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters, without spaces at either end (a UUID is a good key)`,
      },
    };
  }
  return { key: value };
}

/**
 * A fingerprint of the request body, its object keys sorted: the same request
 * sent again (by a client whose JSON writer orders keys differently, too) has
 * the same fingerprint; any other request with the key has another.
 */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
