/** The export route in the OpenAPI document (services/api/routes/exports.ts). */
import { exportQuerySchema } from './export/query.js';
import { errorResponses, PROTECTED, type SchemaSet, type Json } from './openapi-parts.js';

const BINARY = { schema: { type: 'string', format: 'binary' } };

export function exportPath(set: SchemaSet, taskIdParam: Json, security: Json[]): Json {
  return {
    '/api/business/monitor/task/{taskId}/export': {
      get: {
        summary: 'The task result as a file: CSV, NDJSON or XLSX, streamed',
        description:
          'Streamed page by page, so large tasks never sit whole in memory; sent as an attachment named `<taskId>.<format>` (`<taskId>-references.<format>` for the references table). ' +
          'Sub tasks table (CSV, XLSX sheet "sub tasks"): one row per sub task in order: subTaskId, prompt, platform, channel, mode, effectiveMode, status, then per keyword group (monitorKeywords) `<keyword> count`, `<keyword> rank`, `<keyword> first index`, `<keyword> in citations`, `<keyword> sentiment`, then mentioned, reference count, citation count, answer, screenshot URL, error message. ' +
          'CSV is UTF-8 with a byte-order mark and RFC 4180 quoting (CRLF records). NDJSON has one line per sub task, the record exactly as the full result shows it. ' +
          'References table (`table=references`; XLSX sheet "references"): one row per reference: subTaskId, platform, channel, index, cited, title, url, site, domain, domain tag (owned, competitor, other). ' +
          'XLSX also has the sheet "visibility": the rows of the task visibility, then its cited domains. A failure after the first byte can only cut the file short.',
        tags: ['tasks'],
        security,
        parameters: [
          taskIdParam,
          ...set
            .queryParams(exportQuerySchema)
            .map((p) => (p.name === 'format' ? { ...p, required: true } : p)),
        ],
        responses: {
          '200': {
            description: 'The file',
            headers: {
              'Content-Disposition': {
                schema: { type: 'string' },
                description: 'attachment; filename="<taskId>.<format>"',
              },
            },
            content: {
              'text/csv': BINARY,
              'application/x-ndjson': BINARY,
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': BINARY,
            },
          },
          ...errorResponses(set, ['400', '404', ...PROTECTED], {
            '400':
              'taskId is not a UUID, format is missing or unknown, or table is unknown (every problem listed)',
            '404': "Unknown task, or another user's",
          }),
        },
      },
    },
  };
}
