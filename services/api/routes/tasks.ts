/** Spec 4.1 to 4.5 and the platform catalogue: thin routes onto the `tasks` service. */
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { channelsOf, PLATFORMS, supportedModes, type Channel } from '../../shared/platforms.js';
import { pairKey } from '../../shared/contracts/advert.js';
import { absoluteScreenshot } from '../../shared/task-views.js';
import { ok, okSerialised, serialisedOk } from '../envelope.js';
import type { Backend } from '../backend.js';
import { jsonBody } from '../middleware/body.js';
import type { StatusCache } from '../status-cache.js';
import { linkRawEvidence, serveRawEvidence, type EvidenceReader } from '../raw-evidence.js';

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

  router.post('/task/batch/shared', jsonBody(maxBodyBytes), async (ctx) => {
    const data = await backend.call('tasks.submit', { userId: userId(ctx), body: ctx.state.body });
    ok(ctx, data, 'batch task submitted');
  });

  router.get('/task/status/:taskId', async (ctx) => {
    const params = { userId: userId(ctx), taskId: ctx.params.taskId ?? '' };
    const body = await statusCache.get(params.taskId.toLowerCase(), params.userId, async () =>
      serialisedOk(await backend.call('tasks.status', params)),
    );
    okSerialised(ctx, body);
  });

  router.get('/task/result/:taskId', async (ctx) => {
    const data = await backend.call<{ taskId: string; subTaskList: SubTaskView[] }>(
      'tasks.result',
      { userId: userId(ctx), taskId: ctx.params.taskId },
    );
    data.subTaskList.forEach((s) => absoluteScreenshot(s, base(ctx)));
    await linkRawEvidence(evidence, data.taskId, data.subTaskList, base(ctx));
    ok(ctx, data);
  });

  router.get('/task/:taskId/visibility', async (ctx) => {
    ok(
      ctx,
      await backend.call('tasks.visibility', { userId: userId(ctx), taskId: ctx.params.taskId }),
    );
  });

  router.get('/task/result/:taskId/:subTaskId', async (ctx) => {
    const params = {
      userId: userId(ctx),
      taskId: ctx.params.taskId,
      subTaskId: ctx.params.subTaskId,
    };
    const data = await backend.call<SubTaskView>('tasks.subTaskResult', params);
    absoluteScreenshot(data, base(ctx));
    // Found, so the id is a valid UUID; the link uses its canonical (lower-case) form.
    await linkRawEvidence(evidence, params.taskId!.toLowerCase(), [data], base(ctx));
    ok(ctx, data);
  });

  router.get('/task/result/:taskId/:subTaskId/raw', async (ctx) => {
    await serveRawEvidence(ctx, backend, evidence, {
      userId: userId(ctx),
      taskId: ctx.params.taskId,
      subTaskId: ctx.params.subTaskId,
    });
  });

  router.get('/task/list', async (ctx) => {
    ok(ctx, await backend.call('tasks.list', { userId: userId(ctx), query: { ...ctx.query } }));
  });

  router.get('/platforms', async (ctx) => {
    const offer = await backend.call<Availability>('tasks.availability', {});
    const runs = (name: string, channel: Channel) => offer.pairs.includes(pairKey(name, channel));
    ok(
      ctx,
      PLATFORMS.map((p) => {
        const channel = offer.channels[p.name] ?? p.defaultChannel;
        return {
          platform: p.name,
          label: p.label,
          vendor: p.vendor,
          aliases: p.aliases,
          modes: supportedModes(p, channel),
          channel,
          defaultChannel: p.defaultChannel,
          channels: p.channels,
          // null while no crawler node is up: submissions are accepted and wait for one.
          available: offer.known ? offer.platforms.includes(p.name) : null,
          availableChannels: offer.known ? channelsOf(p).filter((c) => runs(p.name, c)) : null,
        };
      }),
    );
  });

  return router;
}

/** `tasks.availability`. */
interface Availability {
  known: boolean;
  platforms: string[];
  pairs: string[];
  channels: Record<string, Channel>;
}

interface SubTaskView {
  subTaskId: string;
  pageScreenshot: string | null;
  mentionScreenshot?: string | null;
  rawEvidence?: string | null;
}
