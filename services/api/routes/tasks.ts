/** Spec 4.1 to 4.5 and the platform catalogue: thin routes onto the `tasks` service. */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { ok, okSerialised } from '../envelope.js';
import { statusBody } from '../status-read.js';
import type { Backend } from '../backend.js';
import { jsonBody } from '../middleware/body.js';
import type { StatusCache } from '../status-cache.js';
import { serveRawEvidence, type EvidenceReader } from '../raw-evidence.js';
import { baseUrl } from '../base-url.js';
import { subTaskResultView, taskResultView } from '../result-views.js';
import { platformEntries } from '../platform-views.js';
import { PATHS } from '../../shared/contracts/http-paths.js';
import { IDEMPOTENCY_HEADER } from '../../shared/requests/idempotency.js';
import type { submitAnswer } from '../../shared/task-views.js';

type SubmitAnswer = ReturnType<typeof submitAnswer>;

export function taskRoutes(
  backend: Backend,
  maxBodyBytes: number,
  publicBaseUrl: string | undefined,
  statusCache: StatusCache,
  evidence: EvidenceReader,
): Router {
  const router = new Router();
  const userId = (ctx: Context) => ctx.state.userId as number;
  const views = (ctx: Context) => ({ backend, evidence, base: baseUrl(ctx, publicBaseUrl) });

  router.post(PATHS.TASK_SUBMIT, jsonBody(maxBodyBytes), async (ctx) => {
    const { replayed, ...data } = await backend.call<SubmitAnswer>('tasks.submit', {
      userId: userId(ctx),
      body: ctx.state.body,
      idempotencyKey: ctx.get(IDEMPOTENCY_HEADER) || undefined,
    });
    // A retry with the key of an earlier submission: the same task, said so in a header.
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    ok(ctx, data, 'batch task submitted');
  });

  router.get(PATHS.TASK_STATUS, async (ctx) => {
    okSerialised(ctx, await statusBody(statusCache, backend, userId(ctx), ctx.params.taskId ?? ''));
  });

  router.get(PATHS.TASK_RESULT, async (ctx) => {
    ok(ctx, await taskResultView(views(ctx), userId(ctx), ctx.params.taskId));
  });

  router.get(PATHS.TASK_VISIBILITY, async (ctx) => {
    ok(
      ctx,
      await backend.call('tasks.visibility', { userId: userId(ctx), taskId: ctx.params.taskId }),
    );
  });

  router.get(PATHS.SUBTASK_RESULT, async (ctx) => {
    const { taskId, subTaskId } = ctx.params;
    ok(ctx, await subTaskResultView(views(ctx), userId(ctx), taskId, subTaskId));
  });

  router.get(PATHS.SUBTASK_RAW, async (ctx) => {
    await serveRawEvidence(ctx, backend, evidence, {
      userId: userId(ctx),
      taskId: ctx.params.taskId,
      subTaskId: ctx.params.subTaskId,
    });
  });

  router.get(PATHS.TASK_LIST, async (ctx) => {
    ok(ctx, await backend.call('tasks.list', { userId: userId(ctx), query: { ...ctx.query } }));
  });

  router.get(PATHS.PLATFORMS, async (ctx) => {
    ok(ctx, await platformEntries(backend, { ...ctx.query }));
  });

  return router;
}
