/**
 * `GET /task/{taskId}/events`: the task's progress as Server-Sent Events
 * (snapshot, a `subtask` event per status change, `done`), for its owner.
 * Errors (unknown task, the stream cap) answer the usual envelope before the
 * stream starts; after that the hub writes and the client's hang-up ends it.
 */
import { PassThrough } from 'node:stream';
import { Router } from '@koa/router';
import type { ProgressHub } from '../progress/progress-hub.js';
import { resumedAfter } from '../progress/sse-frame.js';
import { checkTaskId } from '../../shared/requests/task-queries.js';
import { PATHS } from '../../shared/contracts/http-paths.js';

export function eventRoutes(hub: ProgressHub): Router {
  const router = new Router();

  router.get(PATHS.TASK_EVENTS, async (ctx) => {
    const userId = ctx.state.userId as number;
    // A malformed id is a 400 whatever the cap.
    const opened = await hub.open(
      checkTaskId(ctx.params.taskId),
      userId,
      resumedAfter(ctx.get('last-event-id') || undefined),
    );
    // A stream lives as long as the task runs: no idle timeout, no buffering in proxies.
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-cache, no-transform');
    ctx.set('X-Accel-Buffering', 'no');
    const out = new PassThrough();
    ctx.body = out;
    const { close } = opened.attach(out);
    ctx.res.once('close', close);
    out.once('close', close);
  });

  return router;
}
