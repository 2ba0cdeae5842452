/** The export route in the OpenAPI document (services/api/routes/exports.ts). */
import { exportQuerySchema } from './export/query.js';
import { errorResponses, PROTECTED } from './openapi-errors.js';
import { keywordGroups } from '../shared/brand/groups.js';
import { parseKeywords } from '../shared/brand/keywords.js';
import { csvLine, UTF8_BOM } from './export/csv.js';
import { subTaskHeader, subTaskRow } from './export/tables.js';
import { resultExample, submissionExample, TASK_ID } from './openapi-examples.js';
import { example, type Json, type SchemaSet } from './openapi-parts.js';
import { SECURITY, taskIdParam } from './openapi-tasks.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

/** Two sub tasks written as the export writes them: the same row and line functions. */
const examples = (() => {
  const groups = keywordGroups(parseKeywords(submissionExample.monitorKeywords));
  const items = resultExample.subTaskList.map((result, seq) => ({
    seq,
    result,
    brand: { mentions: result.mentions, mentioned: result.mentioned, sentiment: result.sentiment },
  }));
  return {
    csv:
      UTF8_BOM +
      [subTaskHeader(groups), ...items.map((i) => subTaskRow(i, groups, resultExample.name))]
        .map(csvLine)
        .join(''),
    ndjson: items
      .map((i) => `${JSON.stringify({ taskName: resultExample.name, ...i.result })}\n`)
      .join(''),
  };
})();

export function exportPath(set: SchemaSet): Json {
  return {
    [openApiPath(PATHS.TASK_EXPORT)]: {
      get: {
        summary: 'The task result as a file: CSV, NDJSON or XLSX, streamed',
        description:
          'Streamed page by page, so large tasks never sit whole in memory; sent as an attachment named `<taskId>.<format>` (`<taskId>-references.<format>` for the references table). ' +
          'Sub tasks table (CSV, XLSX sheet "sub tasks"): one row per sub task in order: task name (`name` of the submission, empty when none), subTaskId, prompt, platform, channel, mode, effectiveMode, status, then per keyword group (monitorKeywords) `<keyword> count`, `<keyword> position` (place among all the brands the answer recommends), `<keyword> group rank` (place among the keyword groups), `<keyword> first index`, `<keyword> in citations`, `<keyword> sentiment`, then mentioned, reference count, citation count, answer, screenshot URL, error message. ' +
          'CSV is UTF-8 with a byte-order mark and RFC 4180 quoting (CRLF records). NDJSON has one line per sub task: `taskName` (`name` of the submission, null when none), then the record exactly as the full result shows it. ' +
          'References table (`table=references`; XLSX sheet "references"): one row per reference: subTaskId, platform, channel, index, cited, title, url, site, domain, domain tag (owned, competitor, other). ' +
          'Insight tables (docs/insights.md), sums over the whole task: `table=discovered` (XLSX sheet "discovered"): one row per brand the answers recommend that no keyword group watches: name, answers, share, average position, best position, places (one line per place: `<platform> [channel] [mode]: <answers> (<share>)`), example subTaskId, example platform, example prompt; `table=opportunities` (XLSX sheet "opportunities"): one row per domain cited in answers that name a competitor and not the first group: domain, tag, keyword, answers, user answers (answers naming the first group that cite it, the contrast), retrieved answers, competitors, page URLs, page titles, retrieved URLs, retrieved titles, prompts, places (list cells hold one item a line; the n-th title is the n-th URL\'s). In NDJSON each line is `taskName` then the record exactly as `visibility.discovered` or `visibility.opportunities` shows it. ' +
          'XLSX also has the sheet "visibility": the rows of the task visibility (keyword, platform, channel, mode, answers, then the figures), a blank row, then its cited domains (platform, channel, mode, domain, count, tag, keyword); channel and mode are empty where the visibility leaves them out (one channel, or one mode that ran). A failure after the first byte can only cut the file short.',
        tags: ['tasks'],
        security: SECURITY,
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
                example: `attachment; filename="${TASK_ID}.csv"`,
              },
            },
            content: {
              'text/csv': {
                schema: { type: 'string' },
                examples: example('The sub tasks table', examples.csv),
              },
              'application/x-ndjson': {
                schema: { type: 'string' },
                examples: example('One line per sub task', examples.ndjson),
              },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                schema: { type: 'string', format: 'binary' },
              },
            },
          },
          ...errorResponses(set, ['400', '404', ...PROTECTED], {
            '400': {
              text: 'taskId is not a UUID, format is missing or unknown, or table is unknown (every problem listed)',
              example: {
                message: 'invalid request: format: format must be one of csv, ndjson, xlsx',
                errors: [{ field: 'format', message: 'format must be one of csv, ndjson, xlsx' }],
              },
            },
            '404': "Unknown task, or another user's",
          }),
        },
      },
    },
  };
}
