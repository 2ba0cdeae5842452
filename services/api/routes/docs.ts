/** Public documentation routes. */
import { Router } from '@koa/router';
import { DOCS_PAGE } from '../docs-page.js';
import { buildOpenApi } from '../openapi.js';

export function docsRoutes(
  version: string,
  publicBaseUrl: string | undefined,
  channelChoices: Readonly<Record<string, string>>,
): Router {
  const router = new Router();
  let openapi: Record<string, unknown> | undefined;
  router.get('/openapi.json', (ctx) => {
    openapi ??= buildOpenApi(version, publicBaseUrl ?? '/', channelChoices);
    ctx.body = openapi;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_PAGE;
  });
  return router;
}
