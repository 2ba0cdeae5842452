/**
 * Follows a task's events stream (`GET /task/{taskId}/events`, Server-Sent
 * Events read with the project's SseParser) until its `done` event. A stream
 * that breaks off is opened again with `Last-Event-ID`; the server then
 * starts over with a fresh snapshot, so nothing missed is lost.
 */
import { SseParser, type SseEvent } from '../../crawler/platforms/common/sse.js';
import { PATHS, pathTo } from '../../services/shared/contracts/http-paths.js';
import type { ApiClient } from './api-client.js';
import { CliError, EXIT } from './exit-codes.js';

export interface FollowOptions {
  /** Wait before reconnecting, unless the stream sent `retry:`. */
  retryMs?: number;
  /** Reconnections in a row without a single event before giving up. */
  maxRetries?: number;
  /** Told of each reconnection (stderr). */
  onRetry?: (why: string) => void;
}

/** Calls `onEvent` with every event; resolves after `done`. */
export async function followTask(
  client: ApiClient,
  taskId: string,
  onEvent: (event: SseEvent) => void,
  o: FollowOptions = {},
): Promise<void> {
  let retryMs = o.retryMs ?? 1000;
  const maxRetries = o.maxRetries ?? 10;
  let lastId: string | undefined;
  let failures = 0;
  const path = pathTo(PATHS.TASK_EVENTS, { taskId });
  for (;;) {
    let why: string;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastId !== undefined) headers['last-event-id'] = lastId;
      const res = await client.open(path, { headers }, 'the task events stream');
      const parser = new SseParser();
      let done = false;
      const take = (events: SseEvent[]) => {
        for (const e of events) {
          failures = 0;
          if (e.id !== undefined) lastId = e.id;
          if (e.retry !== undefined) retryMs = e.retry;
          onEvent(e);
          if (e.event === 'done') done = true;
        }
      };
      try {
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          take(parser.push(chunk));
          if (done) break;
        }
        if (!done) take(parser.end());
        why = 'the stream ended before the task was done';
      } catch (err) {
        why = `the stream broke off (${(err as Error).message})`;
      }
      if (done) {
        await res.body?.cancel().catch(() => undefined);
        return;
      }
    } catch (err) {
      // Only an unreachable or failing service is worth another try; a refusal stays one.
      if (!(err instanceof CliError) || err.code !== EXIT.unreachable) throw err;
      why = err.message;
    }
    failures += 1;
    if (failures > maxRetries) {
      throw new CliError(`gave up following task ${taskId}: ${why}`, EXIT.unreachable);
    }
    o.onRetry?.(`${why}; reconnecting in ${retryMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, retryMs));
  }
}
