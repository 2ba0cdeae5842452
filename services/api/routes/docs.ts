/**
 * Public documentation routes: the OpenAPI document, the Swagger UI page and
 * the page's files (an allow-list, see docs/assets.ts), with ETags so a
 * browser revalidates instead of loading the 1.7 MB bundle again.
 */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../../shared/errors.js';
import { AssetStore, etagOf } from '../docs/assets.js';
import { DOCS_PAGE, docsPolicy } from '../docs/page.js';
import { buildOpenApi } from '../openapi.js';
import { PATHS } from '../../shared/contracts/http-paths.js';

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
  const pageEtag = etagOf(DOCS_PAGE);
  let openapi: Record<string, unknown> | undefined;
  router.get(PATHS.OPENAPI, (ctx) => {
    openapi ??= buildOpenApi(version, publicBaseUrl ?? '/', channelChoices);
    ctx.body = openapi;
  });
  router.get(PATHS.DOCS, (ctx) => {
    ctx.set('Content-Security-Policy', policy);
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Revalidated on every visit: the page names the files, so it must never be stale.
    ctx.set('Cache-Control', 'no-cache');
    if (notModified(ctx, pageEtag)) return;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_PAGE;
  });
  router.get(PATHS.DOCS_ASSET, async (ctx) => {
    const asset = await assets.get(ctx.params.file ?? '');
    if (!asset) throw AppError.notFound('documentation file');
    const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    ctx.vary('Accept-Encoding');
    ctx.set('Cache-Control', ASSET_CACHE);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (notModified(ctx, gzip ? `${asset.etag.slice(0, -1)}-gz"` : asset.etag)) return;
    ctx.type = asset.type;
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? asset.gzip : asset.body;
  });
  return router;
}

/** Sets the ETag; true, answered 304 without a body, when the request already has it. */
function notModified(ctx: Context, etag: string): boolean {
  ctx.set('ETag', etag);
  if (!matches(ctx.get('if-none-match'), etag)) return false;
  ctx.status = 304;
  return true;
}

/**
 * If-None-Match by weak comparison (RFC 9110 13.1.2). Koa's `ctx.fresh` says
 * stale whenever the request has Cache-Control: no-cache, which fetch()
 * sends with every conditional request; an origin server may answer 304 then.
 */
function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
