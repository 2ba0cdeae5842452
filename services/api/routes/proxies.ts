/** Spec 4.6 `GET /ports/city-info` (under /api/business/eip-edge): public, onto `proxies`. */
import { Router } from '@koa/router';
import { checkCityInfoQuery } from '../../shared/requests/city-query.js';
import type { Backend } from '../backend.js';
import { ok } from '../envelope.js';
import { PATHS } from '../../shared/contracts/http-paths.js';

export function proxyRoutes(backend: Backend): Router {
  const router = new Router();
  router.get(PATHS.CITY_INFO, async (ctx) => {
    ok(ctx, await backend.call('proxies.cityInfo', checkCityInfoQuery({ ...ctx.query })));
  });
  return router;
}
