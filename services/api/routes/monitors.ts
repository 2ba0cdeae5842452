/** Monitors (docs/monitors.md): thin routes onto the `monitors` service. */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Backend } from '../backend.js';
import { ok } from '../envelope.js';
import { jsonBody } from '../middleware/body.js';
import { PATHS } from '../../shared/contracts/http-paths.js';

export function monitorRoutes(backend: Backend, maxBodyBytes: number): Router {
  const router = new Router();
  const owner = (ctx: Context) => ({
    userId: ctx.state.userId as number,
    monitorId: ctx.params.monitorId ?? '',
  });

  router.post(PATHS.MONITORS, jsonBody(maxBodyBytes), async (ctx) => {
    const data = await backend.call('monitors.create', {
      userId: ctx.state.userId as number,
      body: ctx.state.body,
    });
    ok(ctx, data, 'monitor created');
  });

  router.get(PATHS.MONITORS, async (ctx) => {
    const query = { ...ctx.query };
    ok(ctx, await backend.call('monitors.list', { userId: ctx.state.userId as number, query }));
  });

  router.get(PATHS.MONITOR, async (ctx) => {
    ok(ctx, await backend.call('monitors.get', owner(ctx)));
  });

  router.put(PATHS.MONITOR, jsonBody(maxBodyBytes), async (ctx) => {
    const data = await backend.call('monitors.update', { ...owner(ctx), body: ctx.state.body });
    ok(ctx, data, 'monitor saved');
  });

  router.delete(PATHS.MONITOR, async (ctx) => {
    ok(ctx, await backend.call('monitors.remove', owner(ctx)), 'monitor deleted');
  });

  router.post(PATHS.MONITOR_RUN, async (ctx) => {
    ok(ctx, await backend.call('monitors.runNow', owner(ctx)), 'run started');
  });

  router.post(PATHS.MONITOR_WATCH, jsonBody(maxBodyBytes), async (ctx) => {
    const data = await backend.call<{ added: boolean }>('monitors.watch', {
      ...owner(ctx),
      body: ctx.state.body,
    });
    ok(ctx, data, data.added ? 'brand watched' : 'already watched');
  });

  router.get(PATHS.MONITOR_RUNS, async (ctx) => {
    const query = { ...ctx.query };
    ok(ctx, await backend.call('monitors.runs', { ...owner(ctx), query }));
  });

  router.get(PATHS.MONITOR_TRENDS, async (ctx) => {
    const query = { ...ctx.query };
    ok(ctx, await backend.call('monitors.trends', { ...owner(ctx), query }));
  });

  router.get(PATHS.MONITOR_CHANGES, async (ctx) => {
    const query = { ...ctx.query };
    ok(ctx, await backend.call('monitors.changes', { ...owner(ctx), query }));
  });

  return router;
}
