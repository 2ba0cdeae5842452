/** A monitor's id and the query parameters of its trends and change feed, pure; every problem in one 400. */
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

/** A monitorId that is not a UUID is a client mistake (400), not an unknown monitor (404). */
export function checkMonitorId(id: unknown): string {
  if (typeof id !== 'string' || !isUuid(id)) {
    throw AppError.invalid([{ field: 'monitorId', message: 'must be a UUID' }]);
  }
  return id.toLowerCase();
}

const EPOCH_MS = /^[0-9]{1,15}$/;
/** ISO 8601 as Date parses it reliably: a date, optionally a time with a zone. */
const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

const instant = (name: string) =>
  z
    .string({ error: `${name} must be given once` })
    .refine(
      (s) => (EPOCH_MS.test(s) || ISO_8601.test(s)) && !Number.isNaN(toMs(s)),
      `${name} must be an ISO 8601 time (2026-03-01 or 2026-03-01T09:00:00Z) or milliseconds since the epoch`,
    )
    .transform(toMs)
    .optional()
    .meta({
      description: `${name === 'from' ? 'First' : 'Last'} run slot included: ISO 8601 or ms since the epoch`,
    });

function toMs(s: string): number {
  return EPOCH_MS.test(s) ? Number(s) : Date.parse(s);
}

const window = z.object({ from: instant('from'), to: instant('to') });

const ordered = <T extends { from?: number; to?: number }>(q: T, ctx: z.RefinementCtx) => {
  if (q.from !== undefined && q.to !== undefined && q.from > q.to) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must not be before from' });
  }
};

export const trendsQuerySchema = window
  .extend({
    groupBy: z
      .enum(TREND_GROUPS, { error: `groupBy must be one of ${TREND_GROUPS.join(', ')}` })
      .optional()
      .meta({ description: 'What each series pools (default platform)' }),
  })
  .superRefine(ordered);

export const changesQuerySchema = window
  .extend({
    limit: z
      .string({ error: 'limit must be given once' })
      .regex(/^[0-9]+$/, 'limit must be a whole number')
      .transform(Number)
      .pipe(z.int().min(1, 'limit must be at least 1').max(500, 'limit must be at most 500'))
      .optional()
      .meta({ description: 'Changes returned at most, newest first: 1 to 500 (default 100)' }),
    kind: z
      .enum(CHANGE_KINDS, { error: `kind must be one of ${CHANGE_KINDS.join(', ')}` })
      .optional()
      .meta({ description: 'Only changes of this kind' }),
  })
  .superRefine(ordered);

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
