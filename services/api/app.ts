/**
 * The Koa application: middleware and routers, no listening. Tests drive
 * `app.callback()` or listen on port 0; the api service listens for real.
 */
import Koa from 'koa';
import { Router } from '@koa/router';
import type { Registry } from 'prom-client';
import type { Config } from '../shared/config.js';
import type { Clock } from '../shared/clock.js';
import { VERSION } from '../shared/version.js';
import { PATHS } from '../shared/contracts/http-paths.js';
import type { TokenVerifier } from '../shared/tokens.js';
import type { Backend } from './backend.js';
import { ok } from './envelope.js';
import { requireToken, rateLimit } from './middleware/auth.js';
import { errorEnvelope, type Logger } from './middleware/errors.js';
import { methodRules } from './middleware/methods.js';
import { RateLimiter } from './ratelimit.js';
import type { StatusCache } from './status-cache.js';
import type { EvidenceReader } from './raw-evidence.js';
import { authRoutes } from './routes/auth.js';
import { callbackRoutes } from './routes/callbacks.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { docsRoutes } from './routes/docs.js';
import { eventRoutes } from './routes/events.js';
import { evidenceRoutes, jwksRoutes, type EvidenceKeySource } from './routes/evidence.js';
import type { ProgressHub } from './progress/progress-hub.js';
import type { Readiness } from './readiness.js';
import type { NodeState } from '../shared/crawler-states.js';
import { mcpRoutes } from './routes/mcp.js';
import { operatorRoutes } from './routes/operator.js';
import { exportRoutes } from './routes/exports.js';
import { monitorRoutes } from './routes/monitors.js';
import { proxyRoutes } from './routes/proxies.js';
import { screenshotRoutes } from './routes/screenshots.js';
import { taskRoutes } from './routes/tasks.js';

export interface AppDeps {
  config: Config;
  /** PNG bytes of a stored screenshot, or undefined. */
  screenshot: (id: string) => Promise<Buffer | undefined>;
  /** Raw evidence of web sub tasks (services/shared/evidence.ts). */
  evidence: EvidenceReader;
  /** The keys that sign evidence bundles (services/shared/evidence-keys.ts). */
  evidenceKeys: EvidenceKeySource;
  backend: Backend;
  clock: Clock;
  logger: Logger;
  verifier: () => Promise<TokenVerifier>;
  /** Status answers, kept between the events that change them (api.service.ts feeds it). */
  statusCache: StatusCache;
  /** The task events streams of this node (api.service.ts feeds it the cluster's events). */
  progress: ProgressHub;
  /** Whether this node can serve (services/api/readiness.ts). */
  ready: () => Promise<Readiness>;
  /** The crawler nodes and their ports, asked of each (services/shared/crawler-states.ts). */
  crawlerStates: () => Promise<NodeState[]>;
  /** The business figures served at `/metrics` (services/api/metrics/). */
  metrics: Registry;
}

export function createApp({
  config,
  backend,
  clock,
  logger,
  verifier,
  screenshot,
  evidence,
  evidenceKeys,
  statusCache,
  progress,
  ready,
  crawlerStates,
  metrics,
}: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  const limiter = new RateLimiter(config.rateLimitPerSecond, config.rateLimitBurst, clock);

  // The routers carry no prefix: every route registers its whole path from PATHS.
  const business = new Router();
  business.get(PATHS.HEALTH, (ctx) => ok(ctx, { status: 'ok', version: VERSION }));
  // Probes: live = the process answers; ready = it can serve (503 lists what fails).
  business.get(PATHS.HEALTH_LIVE, (ctx) => ok(ctx, { status: 'live', version: VERSION }));
  business.get(PATHS.HEALTH_READY, async (ctx) => {
    const r = await ready();
    ctx.status = r.ready ? 200 : 503;
    ctx.body = {
      success: r.ready,
      code: ctx.status,
      message: r.ready ? 'ready' : 'not ready',
      data: r,
    };
  });
  mount(business, docsRoutes(VERSION, config.publicBaseUrl, config.scheduling.platformChannels));
  // The token endpoint is limited per client address to slow down key guessing.
  business.use(PATHS.AUTH_TOKEN, rateLimit(limiter));
  mount(business, authRoutes(backend, config.maxBodyBytes));
  mount(business, jwksRoutes(evidenceKeys));

  const monitor = new Router();
  const tokenChecks = { verifier, issuer: config.jwtIssuer, audience: config.jwtAudience, clock };
  monitor.use(
    requireToken({
      ...tokenChecks,
      // A browser's EventSource cannot send headers: the events stream also takes ?access_token=.
      queryTokenPath: PATHS.TASK_EVENTS,
    }),
  );
  monitor.use(rateLimit(limiter));
  // Before the task routes: `…/result/{taskId}/evidence` would otherwise be read as a sub task id.
  mount(
    monitor,
    evidenceRoutes({
      backend,
      evidence,
      screenshot,
      keys: evidenceKeys,
      clock,
      logger,
      publicBaseUrl: config.publicBaseUrl,
    }),
  );
  monitor.get(PATHS.ME, async (ctx) => {
    ok(ctx, await backend.call('users.profile', { userId: ctx.state.userId as number }));
  });
  mount(
    monitor,
    taskRoutes(backend, config.maxBodyBytes, config.publicBaseUrl, statusCache, evidence),
  );
  mount(monitor, eventRoutes(progress));
  mount(monitor, callbackRoutes(backend, config.maxBodyBytes));
  mount(monitor, exportRoutes(backend, config.publicBaseUrl, evidence, logger));
  mount(monitor, monitorRoutes(backend, config.maxBodyBytes));

  const operator = new Router();
  operator.use(requireToken(tokenChecks));
  operator.use(rateLimit(limiter));
  mount(operator, operatorRoutes(backend, crawlerStates));

  // The MCP tools act as the token's user, limited like the REST routes they mirror.
  const mcp = new Router();
  mcp.use(requireToken(tokenChecks));
  mcp.use(rateLimit(limiter));
  mount(
    mcp,
    mcpRoutes({
      backend,
      evidence,
      screenshot,
      crawlerStates,
      statusCache,
      maxBodyBytes: config.maxBodyBytes,
      publicBaseUrl: config.publicBaseUrl,
    }),
  );

  // The city lookup is public (spec 4.6), so it is limited per client address.
  const eipEdge = new Router();
  eipEdge.use(rateLimit(limiter));
  mount(eipEdge, proxyRoutes(backend));

  // Prometheus scrapes without a token: the figures are counts, nothing of any user's content.
  const scrape = new Router();
  scrape.get(PATHS.METRICS, async (ctx) => {
    ctx.type = metrics.contentType;
    ctx.body = await metrics.metrics();
  });

  // Only a failing request or response stream reaches here (the middleware catches the
  // rest). Koa would print each with its stack; a client hanging up is no news at all.
  app.silent = true;
  app.on('error', (err: Error & { code?: string }) => {
    if (!clientGone(err.code)) logger.warn(`response failed: ${err.message}`);
  });
  app.use(errorEnvelope(logger));
  app.use(methodRules());
  // The dashboard last: it answers only `/`, its client routes and its assets.
  for (const router of [
    business,
    screenshotRoutes(screenshot),
    monitor,
    operator,
    mcp,
    eipEdge,
    scrape,
    dashboardRoutes(),
  ]) {
    app.use(router.routes());
  }
  return app;
}

/** Sockets the client closed, or cut mid-request (llhttp's HPE_ codes). */
function clientGone(code: string | undefined): boolean {
  return (
    code !== undefined &&
    (code.startsWith('HPE_') ||
      ['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE'].includes(code))
  );
}

function mount(parent: Router, child: Router): void {
  parent.use(child.routes());
}
