/** The export's path and query parameters, checked together so a 400 lists every problem. */
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import { zodProblems } from '../../shared/validation.js';

export const EXPORT_FORMATS = ['csv', 'ndjson', 'xlsx'] as const;
export const EXPORT_TABLES = ['subtasks', 'references', 'discovered', 'opportunities'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportTable = (typeof EXPORT_TABLES)[number];

const once = (name: string) => ({ error: `${name} must be given once` });

export const exportQuerySchema = z.object({
  format: z
    .string(once('format'))
    .pipe(z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` }))
    .meta({ description: 'csv (UTF-8 with BOM), ndjson or xlsx' }),
  table: z
    .string(once('table'))
    .pipe(z.enum(EXPORT_TABLES, { error: `table must be one of ${EXPORT_TABLES.join(', ')}` }))
    .optional()
    .meta({
      description:
        'subtasks (default): one row per sub task; references: one row per reference; discovered: one row per brand the answers recommend that no group watches; opportunities: one row per domain cited where a competitor is named and the first group is not (csv, ndjson; an xlsx has every table as a sheet)',
    }),
});

export interface ExportRequest {
  taskId: string;
  format: ExportFormat;
  table: ExportTable;
}

export function checkExportRequest(taskId: unknown, query: Record<string, unknown>): ExportRequest {
  const parsed = exportQuerySchema.safeParse(query);
  const problems = parsed.success ? [] : zodProblems(parsed.error);
  const validId = typeof taskId === 'string' && isUuid(taskId);
  if (!validId) problems.unshift({ field: 'taskId', message: 'must be a UUID' });
  if (!parsed.success || !validId) throw AppError.invalid(problems);
  return {
    taskId: taskId.toLowerCase(),
    format: parsed.data.format,
    table: parsed.data.table ?? 'subtasks',
  };
}

/** `<taskId>.csv`, `<taskId>-references.ndjson`, `<taskId>-discovered.csv`; an xlsx holds every table. */
export function exportFileName({ taskId, format, table }: ExportRequest): string {
  const suffix = table !== 'subtasks' && format !== 'xlsx' ? `-${table}` : '';
  return `${taskId}${suffix}.${format}`;
}
