/** Validation of path and query parameters of the read endpoints, pure. */
import { z } from 'zod';
import { AppError } from '../errors.js';
import { isUuid } from '../ids.js';
import { zodProblems } from '../validation.js';
import { TASK_STATUSES, type TaskStatus } from '../contracts/status.js';
import { regionCodeSchema } from './submission.js';

/** A whole number ≥ 1 (at most `max`) as a query string carries it. */
export const positiveInt = (name: string, max?: number) =>
  z
    .string({ error: `${name} must be given once` })
    .regex(/^[0-9]+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(
      max === undefined
        ? z.number().int().min(1, `${name} must be at least 1`)
        : z
            .number()
            .int()
            .min(1, `${name} must be at least 1`)
            .max(max, `${name} must be at most ${max}`),
    );

/** `page` and `size` of every paged list (tasks, monitors, a monitor's runs). */
export const pageQuerySchema = z.object({
  page: positiveInt('page').optional().meta({ description: 'Page number, from 1 (default 1)' }),
  size: positiveInt('size', 100)
    .optional()
    .meta({ description: 'Items per page, 1 to 100 (default 10)' }),
});

export function checkPageQuery(query: Record<string, unknown>): { page: number; size: number } {
  const parsed = pageQuerySchema.safeParse(query);
  if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
  return { page: parsed.data.page ?? 1, size: parsed.data.size ?? 10 };
}

export const listQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(TASK_STATUSES, { error: `status must be one of ${TASK_STATUSES.join(', ')}` })
    .optional(),
});

export interface ListQuery {
  page: number;
  size: number;
  status: TaskStatus | undefined;
}

export function checkListQuery(query: Record<string, unknown>): ListQuery {
  const parsed = listQuerySchema.safeParse(query);
  if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
  return { page: parsed.data.page ?? 1, size: parsed.data.size ?? 10, status: parsed.data.status };
}

export const platformsQuerySchema = z.object({
  regionCode: regionCodeSchema.optional().meta({
    description:
      'Judge availability for work in this region (as a submission names it); absent: any region',
  }),
});

export function checkPlatformsQuery(query: Record<string, unknown>): { regionCode: string | null } {
  const parsed = platformsQuerySchema.safeParse(query);
  if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
  return { regionCode: parsed.data.regionCode ?? null };
}

/** A task or sub task id as the path parameters take it (any case). */
export const idSchema = z
  .string()
  .refine(isUuid, 'must be a UUID')
  .meta({ description: 'A UUID, as the submission returned it' });

/** A taskId that is not a UUID is a client mistake (400), not an unknown task (404). */
export function checkTaskId(taskId: unknown): string {
  if (!idSchema.safeParse(taskId).success) {
    throw AppError.invalid([{ field: 'taskId', message: 'must be a UUID' }]);
  }
  return (taskId as string).toLowerCase();
}
