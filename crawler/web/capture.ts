/**
 * Reads the page's own network streams through the Chrome DevTools Protocol,
 * as they arrive. Playwright's `response.body()` gives nothing until a stream
 * has closed and cannot be read while it runs (microsoft/playwright 7466,
 * 17199), and an in-page fetch hook truncates large frames; CDP sees the bytes
 * the site's own JavaScript receives, after the site computed its signatures.
 *
 * `Network.responseReceived` names a stream; `Network.streamResourceContent`
 * then delivers its bytes with every `Network.dataReceived`; on
 * `Network.loadingFinished` it has ended (`Network.getResponseBody` is the
 * fallback for a response that could not be streamed). Calls made from a
 * worker (Doubao's chat call in a SharedWorker; a dedicated worker a site's
 * next build may move its call into) are seen by attaching to the worker's
 * target too (capture-workers.ts).
 */
import type { Page } from 'playwright';
import type { CapturedStream, StreamCapture } from '../platforms/types.js';
import type { EvidenceLog } from './evidence-log.js';
import { attachDedicatedWorkers, attachSharedWorkers, type Cdp } from './capture-workers.js';

interface Pending {
  url: string;
  method: string;
  requestBody?: string;
  hasPostData?: boolean;
}

/** A queue of byte chunks read by one async iterator. */
class ChunkQueue implements AsyncIterable<Buffer> {
  private readonly items: Buffer[] = [];
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  push(chunk: Buffer): void {
    if (this.ended || chunk.length === 0) return;
    this.items.push(chunk);
    this.wake?.();
  }

  end(failure?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = failure;
    this.wake?.();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    for (;;) {
      const item = this.items.shift();
      if (item) {
        yield item;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

/** A captured response: its bytes, and whether CDP agreed to stream them. */
interface Live {
  queue: ChunkQueue;
  /** true: bytes come with dataReceived; false: the body is read whole when it has finished. */
  started: Promise<boolean>;
  /** Bytes that came while streaming was being set up, after its buffered data. */
  held: Buffer[] | undefined;
}

/**
 * Asks CDP to stream the response: the reply holds what arrived so far, and
 * every later dataReceived carries its bytes (held until the reply is in).
 */
function startStreaming(cdp: Cdp, requestId: string): Live {
  const live: Live = { queue: new ChunkQueue(), held: [], started: Promise.resolve(false) };
  live.started = cdp.send('Network.streamResourceContent', { requestId }).then(
    (r) => {
      live.queue.push(Buffer.from((r as { bufferedData: string }).bufferedData, 'base64'));
      for (const chunk of live.held ?? []) live.queue.push(chunk);
      live.held = undefined;
      return true;
    },
    () => {
      live.held = undefined;
      return false;
    },
  );
  return live;
}

interface Waiter {
  match: RegExp;
  resolve(stream: CapturedStream): void;
}

/**
 * Starts capturing on the page (before it navigates, or at least before the
 * prompt is sent). Request and response lines of matched streams go to the
 * evidence; the frames themselves are recorded by the driver's parser.
 */
export async function startCapture(page: Page, evidence?: EvidenceLog): Promise<StreamCapture> {
  const session = await page.context().newCDPSession(page);
  const waiters: Waiter[] = [];
  const closers: (() => Promise<void>)[] = [async () => session.detach().catch(() => undefined)];
  const open = new Set<ChunkQueue>();

  const watch = async (cdp: Cdp) => {
    const pending = new Map<string, Pending>();
    const streams = new Map<string, Live>();
    cdp.on(
      'Network.requestWillBeSent',
      (p: {
        requestId: string;
        request: { url: string; method: string; postData?: string; hasPostData?: boolean };
      }) => {
        if (!waiters.some((w) => w.match.test(p.request.url))) return;
        pending.set(p.requestId, {
          url: p.request.url,
          method: p.request.method,
          requestBody: p.request.postData,
          hasPostData: p.request.hasPostData,
        });
      },
    );
    cdp.on(
      'Network.responseReceived',
      (p: { requestId: string; response: { url: string; status: number; mimeType: string } }) => {
        const req = pending.get(p.requestId);
        pending.delete(p.requestId);
        const at = waiters.findIndex((w) => w.match.test(p.response.url));
        if (!req || at < 0) return;
        const waiter = waiters.splice(at, 1)[0]!;
        // Streaming is asked for at once, before anything else: a short
        // response may otherwise finish first and only be readable whole.
        const live = startStreaming(cdp, p.requestId);
        streams.set(p.requestId, live);
        open.add(live.queue);
        void (async () => {
          let body = req.requestBody;
          if (body === undefined && req.hasPostData) {
            body = await cdp
              .send('Network.getRequestPostData', { requestId: p.requestId })
              .then((r) => (r as { postData: string }).postData)
              .catch(() => undefined);
          }
          evidence?.add({ kind: 'request', url: req.url, method: req.method, body });
          evidence?.add({
            kind: 'response',
            url: p.response.url,
            status: p.response.status,
            mimeType: p.response.mimeType,
          });
          waiter.resolve({
            url: p.response.url,
            method: req.method,
            requestBody: body,
            status: p.response.status,
            mimeType: p.response.mimeType,
            chunks: live.queue,
          });
        })();
      },
    );
    cdp.on('Network.dataReceived', (p: { requestId: string; data?: string }) => {
      const live = streams.get(p.requestId);
      if (!live || !p.data) return;
      const chunk = Buffer.from(p.data, 'base64');
      if (live.held) live.held.push(chunk);
      else live.queue.push(chunk);
    });
    cdp.on('Network.loadingFinished', (p: { requestId: string }) => {
      const live = streams.get(p.requestId);
      if (!live) return;
      streams.delete(p.requestId);
      // Ends only once streaming was set up (or refused): no byte is lost either way.
      void live.started.then(async (streamed) => {
        if (streamed) return live.queue.end();
        try {
          const r = (await cdp.send('Network.getResponseBody', { requestId: p.requestId })) as {
            body: string;
            base64Encoded: boolean;
          };
          live.queue.push(Buffer.from(r.body, r.base64Encoded ? 'base64' : 'utf8'));
          live.queue.end();
        } catch (err) {
          live.queue.end(err as Error);
        }
      });
    });
    cdp.on('Network.loadingFailed', (p: { requestId: string; errorText: string }) => {
      pending.delete(p.requestId);
      const live = streams.get(p.requestId);
      streams.delete(p.requestId);
      void live?.started.then(() => live.queue.end(new Error(`the stream failed: ${p.errorText}`)));
    });
    await cdp.send('Network.enable', { maxPostDataSize: 1 << 20 });
  };

  await watch(session as unknown as Cdp);
  const own = (await session.send('Target.getTargetInfo')) as {
    targetInfo: { browserContextId?: string };
  };
  await attachDedicatedWorkers(session as unknown as Cdp, watch);
  await attachSharedWorkers(page, own.targetInfo.browserContextId, watch, closers);

  return {
    next(match, signal) {
      return new Promise<CapturedStream>((resolve, reject) => {
        const waiter: Waiter = {
          match,
          resolve: (s) => {
            signal.removeEventListener('abort', onAbort);
            resolve(s);
          },
        };
        const onAbort = () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          reject(signal.reason ?? new Error('aborted'));
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
      });
    },
    async close() {
      for (const q of open) q.end();
      await Promise.all(closers.map((c) => c()));
    },
  };
}
