/**
 * Public documentation routes: the OpenAPI document, the Swagger UI page and
 * the page's files (an allow-list, see docs/assets.ts), with ETags so a
 * browser revalidates instead of loading the 1.7 MB bundle again.
 */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../../shared/errors.js';
import { AssetStore } from '../docs/assets.js';
import { DOCS_PAGE, docsPolicy } from '../docs/page.js';
import { buildOpenApi } from '../openapi.js';

/** The bundle changes only with the installed package: a day, then revalidated by ETag. */
const ASSET_CACHE = 'public, max-age=86400';

export function docsRoutes(
  version: string,
  publicBaseUrl: string | undefined,
  channelChoices: Readonly<Record<string, string>>,
): Router {
  const router = new Router();
  const assets = new AssetStore();
  const policy = docsPolicy(publicBaseUrl);
  let openapi: Record<string, unknown> | undefined;
  router.get('/openapi.json', (ctx) => {
    openapi ??= buildOpenApi(version, publicBaseUrl ?? '/', channelChoices);
    ctx.body = openapi;
  });
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', policy);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_PAGE;
  });
  router.get('/docs/assets/:file', async (ctx) => {
    const asset = await assets.get(ctx.params.file ?? '');
    if (!asset) throw AppError.notFound('documentation file');
    const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    ctx.vary('Accept-Encoding');
    ctx.set('Cache-Control', ASSET_CACHE);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('ETag', gzip ? `${asset.etag.slice(0, -1)}-gz"` : asset.etag);
    ctx.type = asset.type;
    if (notModified(ctx)) return;
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? asset.gzip : asset.body;
  });
  return router;
}

/** A conditional request whose ETag still matches: 304 without a body. */
function notModified(ctx: Context): boolean {
  ctx.status = 200;
  if (!ctx.fresh) return false;
  ctx.status = 304;
  return true;
}
