/**
 * The queries of a monitor's trends and changes (`GET …/monitors/{id}/trends`
 * and `…/changes`, the MCP tools monitor_trends and monitor_changes), as a
 * query string carries them, pure.
 */
import { z } from 'zod';
import { positiveInt } from './task-queries.js';

export const TREND_GROUPS = ['platform', 'region', 'channel', 'tag', 'mode'] as const;

export const CHANGE_KINDS = [
  'brand_gained',
  'brand_lost',
  'position_moved',
  'domain_added',
  'domain_removed',
  'competitor_appeared',
  'drift',
] as const;

const instant = (name: string) =>
  z
    .string()
    .refine(
      (s) => /^[0-9]+$/.test(s) || (/^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s))),
      `${name} must be an ISO 8601 time or epoch milliseconds`,
    );

const between = {
  from: instant('from')
    .optional()
    .meta({ description: 'Runs from this time on (ISO 8601 or epoch ms); absent: the first' }),
  to: instant('to')
    .optional()
    .meta({ description: 'Runs up to this time (ISO 8601 or epoch ms); absent: the latest' }),
};

export const trendsQuerySchema = z.object({
  ...between,
  groupBy: z
    .enum(TREND_GROUPS, { error: `groupBy must be one of ${TREND_GROUPS.join(', ')}` })
    .optional()
    .meta({ description: 'What a series is per (default platform)' }),
});

export const changesQuerySchema = z.object({
  ...between,
  limit: positiveInt('limit', 500)
    .optional()
    .meta({ description: 'At most this many changes, newest first, 1 to 500 (default 100)' }),
  kind: z
    .enum(CHANGE_KINDS, { error: `kind must be one of ${CHANGE_KINDS.join(', ')}` })
    .optional()
    .meta({ description: 'Only changes of this kind' }),
});
