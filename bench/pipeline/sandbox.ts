/**
 * The one sandbox stand-in every crawler node of the benchmark shares
 * (SANDBOX_URL), and a record of every platform request it serves: when it
 * arrived and when its response closed, so the benchmark knows exactly how many
 * were in flight. This is the benchmark's only import of the stand-in.
 */
import dc from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startSandboxServer } from '../../sandbox/server.js';
import type { Interval } from './figures.js';

/** The platform requests of the sandbox (page loads and favicons are not counted). */
const PLATFORM_ROUTES = new Set(['POST /v1/chat/completions', 'POST /web/chat']);

export interface PlatformRequest extends Interval {
  route: string;
}

export interface PlatformStandIn {
  url: string;
  /** Every platform request so far, in arrival order. */
  requests: PlatformRequest[];
  /** The end of each request whose prompt the sandbox recorded, from index `from` on. */
  promptEnds(from: number): { prompt: string; end: number }[];
  close(): Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

export async function startPlatformStandIn(
  latencyMs: number,
  streamWrites: number,
): Promise<PlatformStandIn> {
  const requests: PlatformRequest[] = [];
  // The sandbox is the only HTTP server in this process: every server request is its.
  const onRequest = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const route = `${request.method} ${(request.url ?? '').split('?')[0]}`;
    if (!PLATFORM_ROUTES.has(route)) return;
    const rec: PlatformRequest = { route, start: now() };
    requests.push(rec);
    response.once('close', () => {
      rec.end = now();
    });
  };
  dc.subscribe('http.server.request.start', onRequest);
  const sandbox = await startSandboxServer({ latencyMs, streamWrites });
  return {
    url: sandbox.url,
    requests,
    promptEnds(from) {
      // The sandbox's own records arrive in the same order as ours and carry the prompt.
      const theirs = sandbox.stats.requests.filter((r) =>
        PLATFORM_ROUTES.has(`${r.method} ${r.path}`),
      );
      const out: { prompt: string; end: number }[] = [];
      for (let i = from; i < requests.length && i < theirs.length; i++) {
        const { end } = requests[i]!;
        const prompt = theirs[i]!.prompt;
        if (prompt !== undefined && end !== undefined) out.push({ prompt, end });
      }
      return out;
    },
    async close() {
      dc.unsubscribe('http.server.request.start', onRequest);
      await sandbox.close();
    },
  };
}
