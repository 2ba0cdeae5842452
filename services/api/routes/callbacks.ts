/**
 * Callback settings and delivery state (spec 6, DESIGN "Callbacks"): the
 * default address and signing secret (`users`), and the deliveries of a task
 * (`callbacks`).
 */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Backend } from '../backend.js';
import { ok } from '../envelope.js';
import { jsonBody } from '../middleware/body.js';
import { PATHS } from '../../shared/contracts/http-paths.js';

export function callbackRoutes(backend: Backend, maxBodyBytes: number): Router {
  const router = new Router();
  const userId = (ctx: Context) => ctx.state.userId as number;

  router.get(PATHS.CALLBACK, async (ctx) => {
    ok(ctx, await backend.call('users.callbackSettings', { userId: userId(ctx) }));
  });

  router.put(PATHS.CALLBACK, jsonBody(maxBodyBytes), async (ctx) => {
    const data = await backend.call('users.setCallback', {
      userId: userId(ctx),
      body: ctx.state.body,
    });
    ok(ctx, data, 'default callback address saved');
  });

  router.post(PATHS.CALLBACK_SECRET_ROTATE, async (ctx) => {
    const data = await backend.call('users.rotateCallbackSecret', { userId: userId(ctx) });
    ok(ctx, data, 'signing secret rotated');
  });

  router.get(PATHS.TASK_CALLBACKS, async (ctx) => {
    ok(
      ctx,
      await backend.call('callbacks.status', { userId: userId(ctx), taskId: ctx.params.taskId }),
    );
  });

  return router;
}
