/**
 * A monitor's id and the query parameters of its trends and change feed
 * (`GET …/monitors/{id}/trends` and `…/changes`, and the MCP tools
 * monitor_trends and monitor_changes), as a query string carries them, pure;
 * every problem in one 400.
 */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { isUuid } from '../ids.js';
import { zodProblems } from '../validation.js';
import {
  CHANGE_KINDS,
  TREND_GROUPS,
  type ChangeKind,
  type TrendGroupBy,
} from '../contracts/monitor-trends.js';
import { positiveInt } from './task-queries.js';

/** A monitorId that is not a UUID is a client mistake (400), not an unknown monitor (404). */
export function checkMonitorId(id: unknown): string {
  if (typeof id !== 'string' || !isUuid(id)) {
    throw AppError.invalid([{ field: 'monitorId', message: 'must be a UUID' }]);
  }
  return id.toLowerCase();
}

const EPOCH_MS = /^[0-9]{1,15}$/;
/**
 * Milliseconds since the epoch, or ISO 8601 as Date reads it: a date, optionally
 * a time with a zone. Every text it admits parses to a number.
 */
const INSTANT =
  /^(?:[0-9]{1,15}|[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])(?:T(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]{1,9})?)?(?:Z|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9]))?)$/;

const instant = (name: string) =>
  z
    .string({ error: `${name} must be given once` })
    .regex(
      INSTANT,
      `${name} must be an ISO 8601 time (2026-03-01 or 2026-03-01T09:00:00Z) or milliseconds since the epoch`,
    )
    .transform((s) => (EPOCH_MS.test(s) ? Number(s) : Date.parse(s)))
    .optional()
    .meta({
      description: `${name === 'from' ? 'First' : 'Last'} run slot included: ISO 8601 or ms since the epoch`,
    });

const window = z.object({ from: instant('from'), to: instant('to') });

export const trendsQuerySchema = window.extend({
  groupBy: z
    .enum(TREND_GROUPS, { error: `groupBy must be one of ${TREND_GROUPS.join(', ')}` })
    .optional()
    .meta({ description: 'What each series pools (default platform)' }),
});

export const changesQuerySchema = window.extend({
  limit: positiveInt('limit', 500)
    .optional()
    .meta({ description: 'Changes returned at most, newest first: 1 to 500 (default 100)' }),
  kind: z
    .enum(CHANGE_KINDS, { error: `kind must be one of ${CHANGE_KINDS.join(', ')}` })
    .optional()
    .meta({ description: 'Only changes of this kind' }),
});

export interface TrendsQuery {
  from: number | null;
  to: number | null;
  groupBy: TrendGroupBy;
}

export interface ChangesQuery {
  from: number | null;
  to: number | null;
  limit: number;
  kind: ChangeKind | null;
}

export function checkTrendsQuery(query: Record<string, unknown>): TrendsQuery {
  const parsed = trendsQuerySchema.safeParse(query);
  if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
  const { from, to, groupBy } = parsed.data;
  return { from: from ?? null, to: to ?? null, groupBy: groupBy ?? 'platform' };
}

export function checkChangesQuery(query: Record<string, unknown>): ChangesQuery {
  const parsed = changesQuerySchema.safeParse(query);
  if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
  const { from, to, limit, kind } = parsed.data;
  return { from: from ?? null, to: to ?? null, limit: limit ?? 100, kind: kind ?? null };
}
