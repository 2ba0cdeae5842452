/**
 * `GET /api/business/monitor/screenshot/{id}.png`: the random 128-bit id is
 * the capability (DESIGN.md), so the `pageScreenshot` URL opens in a browser
 * without a token; an unknown id is a 404 like any other.
 */
import { Router } from '@koa/router';
import { AppError } from '../../shared/errors.js';
import { PATHS } from '../../shared/contracts/http-paths.js';

export function screenshotRoutes(load: (id: string) => Promise<Buffer | undefined>): Router {
  const router = new Router();
  router.get(PATHS.SCREENSHOT, async (ctx) => {
    const id = /^([0-9a-f]{32})\.png$/.exec(ctx.params.file ?? '')?.[1];
    const png = id ? await load(id) : undefined;
    if (!png) throw AppError.notFound('screenshot');
    ctx.type = 'image/png';
    ctx.set('Cache-Control', 'private, max-age=86400, immutable');
    ctx.body = png;
  });
  return router;
}
