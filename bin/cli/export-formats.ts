/**
 * The export route's formats and tables (services/api/export/query.ts).
 * Repeated here rather than imported: that module loads zod, which would
 * double the CLI's start time; test/unit/cli/export-formats.test.ts keeps
 * the two lists equal.
 */
export const EXPORT_FORMATS = ['csv', 'ndjson', 'xlsx'] as const;
export const EXPORT_TABLES = ['subtasks', 'references', 'discovered', 'opportunities'] as const;
