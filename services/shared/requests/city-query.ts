/** Validation of the city lookup's query string (spec 4.6), pure. */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { zodProblems } from '../validation.js';

const RULE = 'deduplicate must be true or false (1 or 0)';

export const cityInfoQuerySchema = z.object({
  deduplicate: z
    .string({ error: `${RULE}, given once` })
    .regex(/^(true|false|1|0)$/i, RULE)
    .transform((v) => v === '1' || v.toLowerCase() === 'true')
    .optional()
    .meta({ description: 'One port per region code (true, 1) or every port (false, 0; default)' }),
});

export function checkCityInfoQuery(query: Record<string, unknown>): { deduplicate: boolean } {
  const parsed = cityInfoQuerySchema.safeParse(query);
  if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
  return { deduplicate: parsed.data.deduplicate ?? false };
}
