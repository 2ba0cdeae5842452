/**
 * Watching a brand (`POST …/monitors/{monitorId}/watch`, the MCP tool
 * monitor_watch, `aimon monitor watch`), pure: the body's schema, which the
 * OpenAPI document and the MCP tool take from here, and its check, which
 * reports every problem in one 400. The name becomes a keyword group of its
 * own, so it may hold none of the characters that separate entries or aliases.
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { zodProblems } from '../validation.js';

/** A discovered name is at most 40 characters (brand-name.ts); an alias written by hand may be longer. */
export const WATCH_NAME_CHARS = 100;

export const watchInputSchema = z
  .object({
    name: z
      .string({ error: 'is required and must be a string' })
      .regex(/\S/, 'must not be blank')
      .regex(/^[^\p{Cc}]*$/u, 'must be one line without control characters')
      .regex(
        /^[^,，、;；|]*$/,
        'must not contain , ， 、 ; ； or | (they separate keyword entries and aliases)',
      )
      .trim()
      .max(WATCH_NAME_CHARS, `must be at most ${WATCH_NAME_CHARS} characters`)
      .meta({
        description:
          "The brand to watch, e.g. a discovered brand's name: added to monitorKeywords as a group of its own (the name its one alias)",
        examples: ['Initech'],
      }),
  })
  .strict()
  .meta({ id: 'MonitorWatchInput' });

export type WatchInput = z.output<typeof watchInputSchema>;

export function checkWatchInput(body: unknown): WatchInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw AppError.invalid([{ field: 'body', message: 'must be a JSON object' }]);
  }
  const parsed = watchInputSchema.safeParse(body);
  if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
  return parsed.data;
}
