/**
 * Standard Webhooks signing: `webhook-id`, `webhook-timestamp` (seconds) and
 * `webhook-signature` = `v1,` + base64 HMAC-SHA256 over `id.timestamp.body`,
 * keyed with the base64 part of a `whsec_` secret. Receivers can verify with
 * any Standard Webhooks library or the few lines in the README.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { TASK_DELIVERY } from '../contracts/callbacks.js';

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/**
 * The id stays the same for every attempt of a delivery, so receivers can
 * deduplicate: `msg_<taskId>` for a task's callback (spec 6), and
 * `msg_<kind>_<subjectId>` for other kinds.
 */
export function webhookIdFor(kind: string, subjectId: string): string {
  return kind === TASK_DELIVERY ? `msg_${subjectId}` : `msg_${kind}_${subjectId}`;
}

export function signature(secret: string, id: string, timestampSeconds: number, body: string) {
  const key = Buffer.from(
    secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret,
    'base64',
  );
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

export function webhookHeaders(
  secret: string,
  id: string,
  nowMs: number,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, id, timestamp, body),
  };
}

/**
 * The receiver's check: one of the space-separated `v1,` signatures matches and
 * the timestamp is within `toleranceSeconds` of now (against replays).
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
  nowMs: number,
  toleranceSeconds = 300,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  const signatures = headers['webhook-signature'];
  if (!id || !Number.isInteger(timestamp) || !signatures) return false;
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signature(secret, id, timestamp, body));
  return signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
