/** Validation of the filters of `GET …/operator/collectors`, pure. */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { PLATFORMS } from '../platforms.js';
import { zodProblems } from '../validation.js';
import { regionCodeSchema } from './submission.js';

/** Platforms with a web channel: the only ones collector health counts. */
const WEB_PLATFORMS = PLATFORMS.filter((p) => p.channels.web !== undefined).map((p) => p.name);

export const collectorsQuerySchema = z.object({
  platform: z
    .enum(WEB_PLATFORMS as [string, ...string[]], {
      error: `must be a platform with a web channel: ${WEB_PLATFORMS.join(', ')}`,
    })
    .optional()
    .meta({ description: 'Only this platform (its canonical name)' }),
  regionCode: regionCodeSchema.optional().meta({
    description: 'Only the attempts of sub tasks in this region (exactly this code)',
  }),
});

export interface CollectorsFilter {
  platform?: string;
  regionCode?: string;
}

export function checkCollectorsQuery(query: Record<string, unknown>): CollectorsFilter {
  const parsed = collectorsQuerySchema.safeParse(query);
  if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
  return parsed.data;
}
