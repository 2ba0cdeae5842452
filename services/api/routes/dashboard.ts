/**
 * The dashboard (web/, built by `npm run build` into var/web): index.html for
 * `/` and the app's own client routes, hashed assets cached for a year. Every
 * path outside those stays the api's JSON 404. The files are read on each
 * request, so a rebuild shows without a restart; a missing build is a 404
 * that says how to make one.
 */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../../shared/errors.js';
import { PROJECT_ROOT } from '../../shared/project-root.js';

/** Where `vite build --config web/vite.config.ts` writes (from the repository root). */
export const DASHBOARD_DIR = join(PROJECT_ROOT, 'var/web/');

/** The client routes of web/src/router.ts: a reload or a shared link lands on the app. */
const CLIENT_ROUTES =
  /^\/(?:signin|new|operator(?:\/collectors)?|monitors(?:\/[^/]+)?|tasks\/[^/]+(?:\/answer\/[^/]+)?)\/?$/;

/**
 * Scripts, styles and connections from this origin only; images also from
 * data: and blob: (Chart.js, downloads). Icons of cited sites are not shown,
 * so a user's browser never calls third parties while reading an answer.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

export function dashboardRoutes(dir: string = DASHBOARD_DIR): Router {
  const router = new Router();

  const index = async (ctx: Context) => {
    const html = await readFile(join(dir, 'index.html')).catch(() => undefined);
    if (!html)
      throw new AppError('the dashboard is not built: run npm run build', 404, 'NOT_FOUND');
    secure(ctx);
    ctx.type = 'text/html; charset=utf-8';
    // The page names the hashed assets of the current build: always ask again.
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = html;
  };
  router.get('/', index);
  router.get(CLIENT_ROUTES, index);

  router.get('/assets/:file', async (ctx) => {
    const file = ctx.params.file ?? '';
    const type = TYPES[extname(file)];
    // Vite's file names: no separators, so nothing outside assets/ can be named.
    const bytes =
      type && /^[\w.-]+$/.test(file)
        ? await readFile(join(dir, 'assets', file)).catch(() => undefined)
        : undefined;
    if (!bytes) throw AppError.notFound('asset');
    secure(ctx);
    ctx.type = type!;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = bytes;
  });

  return router;
}

function secure(ctx: Context): void {
  ctx.set('Content-Security-Policy', DASHBOARD_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
}
