/** Spec 4.1 to 4.5 and the platform catalogue: thin routes onto the `tasks` service. */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { PLATFORMS, supportedModes, type Channel } from '../../shared/platforms.js';
import type { Verdict } from '../../shared/availability.js';
import { absoluteScreenshot } from '../../shared/task-views.js';
import { ok, okSerialised, serialisedOk } from '../envelope.js';
import type { Backend } from '../backend.js';
import type {
  Built,
  PlatformsData,
  ResultData,
  SubTaskResult,
} from '../../shared/contracts/http.js';
import { jsonBody } from '../middleware/body.js';
import type { StatusCache } from '../status-cache.js';
import { linkRawEvidence, serveRawEvidence, type EvidenceReader } from '../raw-evidence.js';
import { PATHS } from '../../shared/contracts/http-paths.js';

export function taskRoutes(
  backend: Backend,
  maxBodyBytes: number,
  publicBaseUrl: string | undefined,
  statusCache: StatusCache,
  evidence: EvidenceReader,
): Router {
  const router = new Router();
  const userId = (ctx: Context) => ctx.state.userId as number;
  const base = (ctx: Context) => publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`;

  router.post(PATHS.TASK_SUBMIT, jsonBody(maxBodyBytes), async (ctx) => {
    const data = await backend.call('tasks.submit', { userId: userId(ctx), body: ctx.state.body });
    ok(ctx, data, 'batch task submitted');
  });

  router.get(PATHS.TASK_STATUS, async (ctx) => {
    const params = { userId: userId(ctx), taskId: ctx.params.taskId ?? '' };
    const body = await statusCache.get(params.taskId.toLowerCase(), params.userId, async () =>
      serialisedOk(await backend.call('tasks.status', params)),
    );
    okSerialised(ctx, body);
  });

  router.get(PATHS.TASK_RESULT, async (ctx) => {
    const data = await backend.call<ResultData>('tasks.result', {
      userId: userId(ctx),
      taskId: ctx.params.taskId,
    });
    data.subTaskList.forEach((s) => absoluteScreenshot(s, base(ctx)));
    await linkRawEvidence(evidence, data.taskId, data.subTaskList, base(ctx));
    ok(ctx, data);
  });

  router.get(PATHS.TASK_VISIBILITY, async (ctx) => {
    ok(
      ctx,
      await backend.call('tasks.visibility', { userId: userId(ctx), taskId: ctx.params.taskId }),
    );
  });

  router.get(PATHS.SUBTASK_RESULT, async (ctx) => {
    const params = {
      userId: userId(ctx),
      taskId: ctx.params.taskId,
      subTaskId: ctx.params.subTaskId,
    };
    const data = await backend.call<SubTaskResult>('tasks.subTaskResult', params);
    absoluteScreenshot(data, base(ctx));
    // Found, so the id is a valid UUID; the link uses its canonical (lower-case) form.
    await linkRawEvidence(evidence, params.taskId!.toLowerCase(), [data], base(ctx));
    ok(ctx, data);
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
    const offer = await backend.call<Offer[]>('tasks.availability', { query: { ...ctx.query } });
    const of = new Map(offer.map((o) => [o.platform, o]));
    const entries: Built<PlatformsData> = PLATFORMS.map((p) => {
      const { channel, verdicts } = of.get(p.name)!;
      return {
        platform: p.name,
        label: p.label,
        vendor: p.vendor,
        aliases: p.aliases,
        modes: supportedModes(p, channel),
        channel,
        defaultChannel: p.defaultChannel,
        channels: p.channels,
        available: verdicts[channel]!.available,
        availability: verdicts,
      };
    });
    ok(ctx, entries);
  });

  return router;
}

/** `tasks.availability`: per platform its active channel and each channel's verdict. */
interface Offer {
  platform: string;
  channel: Channel;
  verdicts: Partial<Record<Channel, Verdict>>;
}
