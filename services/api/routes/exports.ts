/**
 * `GET /api/business/monitor/task/{taskId}/export`: the task's result as a
 * file, streamed (services/api/export/). The first page is read before any
 * header is sent, so an unknown task, another user's, or a bad query is the
 * standard JSON error; a failure later can only cut the download short.
 */
import { PassThrough } from 'node:stream';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { keywordGroups } from '../../shared/brand/groups.js';
import { absoluteScreenshot } from '../../shared/task-views.js';
import type { Backend } from '../backend.js';
import { baseUrl } from '../base-url.js';
import { checkExportRequest, exportFileName, type ExportFormat } from '../export/query.js';
import { ExportSource } from '../export/source.js';
import { csvStream, ndjsonStream, writeXlsx } from '../export/writers.js';
import { linkRawEvidence, type EvidenceReader } from '../raw-evidence.js';
import type { Logger } from '../middleware/errors.js';
import { PATHS } from '../../shared/contracts/http-paths.js';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function exportRoutes(
  backend: Backend,
  publicBaseUrl: string | undefined,
  evidence: EvidenceReader,
  logger: Logger,
): Router {
  const router = new Router();

  router.get(PATHS.TASK_EXPORT, async (ctx: Context) => {
    const request = checkExportRequest(ctx.params.taskId, { ...ctx.query });
    const base = baseUrl(ctx, publicBaseUrl);
    const source = new ExportSource(
      backend,
      ctx.state.userId as number,
      request.taskId,
      async (taskId, views) => {
        views.forEach((v) => absoluteScreenshot(v, base));
        await linkRawEvidence(evidence, taskId, views, base);
      },
    );
    const { keywords, name } = await source.open();
    const groups = keywordGroups(keywords);

    ctx.status = 200;
    ctx.type = CONTENT_TYPES[request.format];
    ctx.set('Content-Disposition', `attachment; filename="${exportFileName(request)}"`);
    ctx.set('Cache-Control', 'private, no-store');
    if (request.format === 'csv') ctx.body = csvStream(source, groups, name, request.table);
    else if (request.format === 'ndjson')
      ctx.body = ndjsonStream(source, groups, name, request.table);
    else {
      const out = new PassThrough();
      ctx.body = out;
      writeXlsx(source, groups, name, out).catch((err: Error) => {
        logger.warn(`xlsx export of ${request.taskId} failed: ${err.message}`);
        out.destroy(err);
      });
    }
  });

  return router;
}
