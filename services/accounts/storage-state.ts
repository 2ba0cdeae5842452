/**
 * The shape check of a Playwright storage state (`context.storageState()`,
 * or a file exported from a real browser), before it is sealed: a file of
 * the wrong kind is refused with the field that is wrong, never stored.
 */
import { z } from 'zod';
import type { StorageState } from '../shared/contracts/accounts.js';
import { AppError } from '../shared/errors.js';

const cookie = z.looseObject({
  name: z.string().min(1),
  value: z.string(),
  domain: z.string().min(1),
  path: z.string(),
  expires: z.number(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.enum(['Strict', 'Lax', 'None']),
});

const origin = z.looseObject({
  origin: z.string().regex(/^https?:\/\/[^/]+$/, 'must be an origin like https://www.kimi.com'),
  localStorage: z.array(z.object({ name: z.string(), value: z.string() })),
});

const storageStateSchema = z.object({
  cookies: z.array(cookie),
  origins: z.array(origin),
});

/** The state when `value` is a Playwright storage state; else a 400 naming what is wrong. */
export function asStorageState(value: unknown, field = 'storageState'): StorageState {
  const parsed = storageStateSchema.safeParse(value);
  if (parsed.success) return parsed.data as StorageState;
  throw AppError.invalid(
    parsed.error.issues.slice(0, 5).map((i) => ({
      field: [field, ...i.path.map(String)].join('.'),
      message: i.message,
    })),
  );
}
