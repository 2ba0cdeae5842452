/**
 * `/api/business/operator/*`: the cluster's state for users with the
 * `operator` role (set by the admin CLI). The role is read from the users
 * service on every request, so granting or withdrawing it applies at once.
 * `collectors` is the web channel's health per platform × region × account
 * (services/tasks/collectors/).
 */
import { Router } from '@koa/router';
import type { Context, Next } from 'koa';
import { AppError } from '../../shared/errors.js';
import type { NodeState } from '../../shared/crawler-states.js';
import { listAccounts } from '../accounts.js';
import type { Backend } from '../backend.js';
import { ok } from '../envelope.js';
import { nodeRows } from '../operator-views.js';
import { PATHS } from '../../shared/contracts/http-paths.js';
import { checkCollectorsQuery } from '../../shared/requests/collectors-query.js';

export function operatorRoutes(
  backend: Backend,
  crawlerStates: () => Promise<NodeState[]>,
): Router {
  const router = new Router();

  router.use(async (ctx: Context, next: Next) => {
    const me = await backend.call<{ role: string }>('users.profile', {
      userId: ctx.state.userId as number,
    });
    if (me.role !== 'operator') throw AppError.forbidden('operator role required');
    await next();
  });

  router.get(PATHS.OPERATOR_NODES, async (ctx) => {
    ok(ctx, nodeRows(await crawlerStates()));
  });

  router.get(PATHS.OPERATOR_PORTS, async (ctx) => {
    ok(
      ctx,
      (await crawlerStates()).flatMap(({ node, ports }) =>
        ports.map((p) => ({ nodeId: node.id, ...p })),
      ),
    );
  });

  router.get(PATHS.OPERATOR_ACCOUNTS, async (ctx) => {
    ok(ctx, await listAccounts(backend));
  });

  router.get(PATHS.OPERATOR_COLLECTORS, async (ctx) => {
    ok(ctx, await backend.call('tasks.collectors', checkCollectorsQuery({ ...ctx.query })));
  });

  router.get(PATHS.OPERATOR_TASK_CALLBACKS, async (ctx) => {
    ok(ctx, await backend.call('callbacks.statusOfAnyTask', { taskId: ctx.params.taskId }));
  });

  return router;
}
