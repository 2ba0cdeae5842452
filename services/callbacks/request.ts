/**
 * The rules of `callbacks.deliver` and `callbacks.deliveryOf`: what another
 * service may queue, every problem reported in one 400. The address passes the
 * rule a task's callbackUrl passes at submission (services/shared/webhooks/address.ts).
 */
import { z } from 'zod';
import { AppError } from '../shared/errors.js';
import { zodProblems } from '../shared/validation.js';
import type { DeliverRequest } from '../shared/contracts/callbacks.js';
import { callbackUrlSchema } from '../shared/requests/submission.js';
import { refusedAddress } from '../shared/webhooks/address.js';
import type { AddressPolicy } from '../shared/webhooks/ssrf.js';

/** A body is stored with its delivery; MongoDB documents stop at 16 MiB. */
export const MAX_DELIVERY_BODY_BYTES = 4 * 1024 * 1024;

const kindSchema = z
  .string({ error: 'must be a string' })
  .max(64, 'must be at most 64 characters')
  .regex(
    /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/,
    // A task's callback is queued by the callbacks service when the task finishes.
    'must be a dotted lower-case name such as monitor.changes',
  );

const subjectIdSchema = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .regex(/^[\w.:@/-]+$/, 'may hold only letters, digits and _ . : @ / -');

const deliverSchema = z.object({
  kind: kindSchema,
  subjectId: subjectIdSchema,
  userId: z.int({ error: 'must be a user id' }).positive('must be a user id'),
  url: callbackUrlSchema,
  body: z
    .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
    .refine(
      (body) => Buffer.byteLength(JSON.stringify(body)) <= MAX_DELIVERY_BODY_BYTES,
      `must be at most ${MAX_DELIVERY_BODY_BYTES} bytes as JSON`,
    ),
});

/** The checked request, or a 400 listing every problem (a refused address among them). */
export async function checkDeliverRequest(
  params: unknown,
  policy: AddressPolicy,
): Promise<DeliverRequest> {
  const parsed = deliverSchema.safeParse(params);
  const problems = parsed.success ? [] : zodProblems(parsed.error);
  const url = (params as { url?: unknown } | null)?.url;
  if (typeof url === 'string' && !problems.some((p) => p.field === 'url')) {
    const refused = await refusedAddress(url, policy);
    if (refused) problems.push({ field: 'url', message: refused });
  }
  if (!parsed.success || problems.length > 0) throw AppError.invalid(problems);
  return parsed.data;
}

/** The kind and subject of `callbacks.deliveryOf`, or a 400. */
export function checkSubject(params: { kind: unknown; subjectId: unknown }): {
  kind: string;
  subjectId: string;
} {
  const parsed = z.object({ kind: kindSchema, subjectId: subjectIdSchema }).safeParse(params);
  if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
  return parsed.data;
}
