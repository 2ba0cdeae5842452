/**
 * The Koa application: middleware and routers, no listening. Tests drive
 * `app.callback()` or listen on port 0; the api service listens for real.
 */
import Koa from 'koa';
import { Router } from '@koa/router';
import type { Config } from '../shared/config.js';
import type { Clock } from '../shared/clock.js';
import { VERSION } from '../shared/version.js';
import type { TokenVerifier } from '../users/tokens.js';
import type { Backend } from './backend.js';
import { ok } from './envelope.js';
import { requireToken, rateLimit } from './middleware/auth.js';
import { errorEnvelope, type Logger } from './middleware/errors.js';
import { RateLimiter } from './ratelimit.js';
import type { StatusCache } from './status-cache.js';
import { authRoutes } from './routes/auth.js';
import { callbackRoutes } from './routes/callbacks.js';
import { docsRoutes } from './routes/docs.js';
import { proxyRoutes } from './routes/proxies.js';
import { screenshotRoutes } from './routes/screenshots.js';
import { taskRoutes } from './routes/tasks.js';

export interface AppDeps {
  config: Config;
  /** PNG bytes of a stored screenshot, or undefined. */
  screenshot: (id: string) => Promise<Buffer | undefined>;
  backend: Backend;
  clock: Clock;
  logger: Logger;
  verifier: () => Promise<TokenVerifier>;
  /** Status answers, kept between the events that change them (api.service.ts feeds it). */
  statusCache: StatusCache;
}

export function createApp({
  config,
  backend,
  clock,
  logger,
  verifier,
  screenshot,
  statusCache,
}: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  const limiter = new RateLimiter(config.rateLimitPerSecond, config.rateLimitBurst, clock);

  const business = new Router({ prefix: '/api/business' });
  business.get('/health', (ctx) => ok(ctx, { status: 'ok', version: VERSION }));
  mount(business, docsRoutes(VERSION, config.publicBaseUrl));
  // The token endpoint is limited per client address to slow down key guessing.
  business.use('/auth', rateLimit(limiter));
  mount(business, authRoutes(backend, config.maxBodyBytes));

  const monitor = new Router({ prefix: '/api/business/monitor' });
  monitor.use(
    requireToken({ verifier, issuer: config.jwtIssuer, audience: config.jwtAudience, clock }),
  );
  monitor.use(rateLimit(limiter));
  mount(monitor, taskRoutes(backend, config.maxBodyBytes, config.publicBaseUrl, statusCache));
  mount(monitor, callbackRoutes(backend, config.maxBodyBytes));

  // The city lookup is public (spec 4.6), so it is limited per client address.
  const eipEdge = new Router({ prefix: '/api/business/eip-edge' });
  eipEdge.use(rateLimit(limiter));
  mount(eipEdge, proxyRoutes(backend));

  app.use(errorEnvelope(logger));
  for (const router of [business, screenshotRoutes(screenshot), monitor, eipEdge]) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true }));
  }
  return app;
}

function mount(parent: Router, child: Router): void {
  parent.use(child.routes(), child.allowedMethods({ throw: true }));
}
