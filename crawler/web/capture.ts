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
 * SharedWorker (Doubao's chat call) are seen by attaching to the worker target
 * too (see attachWorkers).
 */
import type { CDPSession, Page } from 'playwright';
import type { CapturedStream, StreamCapture } from '../platforms/types.js';
import type { EvidenceLog } from './evidence-log.js';

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

/** Something that speaks CDP: the page's session, or a worker's through the browser session. */
interface Cdp {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (params: never) => void): void;
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
  await attachWorkers(page, own.targetInfo.browserContextId, watch, closers);

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

/**
 * Watches the network of the page's shared workers as well (a page-level
 * session never sees a worker's traffic, and Playwright does not expose
 * shared workers). A browser-level session discovers them; each one of this
 * page's context is attached and watched; messages to it go through
 * `Target.sendMessageToTarget` (Playwright's sessions cannot address a
 * flattened child session, and Chromium auto-attaches at browser level only
 * flattened). The workers running when the capture starts are watched before
 * it is handed out; one started later is watched a moment after it starts, so
 * a site whose worker starts with the page (Doubao) is covered from the send.
 */
async function attachWorkers(
  page: Page,
  contextId: string | undefined,
  watch: (cdp: Cdp) => Promise<void>,
  closers: (() => Promise<void>)[],
): Promise<void> {
  const browser = page.context().browser();
  if (!browser) return;
  let root: CDPSession;
  try {
    root = await browser.newBrowserCDPSession();
  } catch {
    return;
  }
  closers.push(async () => root.detach().catch(() => undefined));
  const children = new Map<string, Map<string, ((params: never) => void)[]>>();
  const calls = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  root.on('Target.receivedMessageFromTarget', (p: { sessionId: string; message: string }) => {
    const msg = JSON.parse(p.message) as {
      id?: number;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { message: string };
    };
    if (msg.id !== undefined) {
      const call = calls.get(msg.id);
      calls.delete(msg.id);
      if (msg.error) call?.reject(new Error(msg.error.message));
      else call?.resolve(msg.result);
      return;
    }
    for (const l of children.get(p.sessionId)?.get(msg.method ?? '') ?? []) l(msg.params as never);
  });
  const channel = (sessionId: string): Cdp => {
    const listeners = new Map<string, ((params: never) => void)[]>();
    children.set(sessionId, listeners);
    return {
      send: (method, params = {}) =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          calls.set(id, { resolve, reject });
          root
            .send('Target.sendMessageToTarget', {
              sessionId,
              message: JSON.stringify({ id, method, params }),
            })
            .catch((err: Error) => {
              calls.delete(id);
              reject(err);
            });
        }),
      on: (event, listener) => listeners.set(event, [...(listeners.get(event) ?? []), listener]),
    };
  };
  const attaching: Promise<void>[] = [];
  const seen = new Set<string>();
  root.on(
    'Target.targetCreated',
    (p: { targetInfo: { targetId: string; type: string; browserContextId?: string } }) => {
      const { targetId, type, browserContextId } = p.targetInfo;
      // Only this page's own context: other accounts' workers live in theirs.
      if (type !== 'shared_worker' || browserContextId !== contextId || seen.has(targetId)) return;
      seen.add(targetId);
      const attached = root
        .send('Target.attachToTarget', { targetId, flatten: false })
        .then((r) => watch(channel((r as { sessionId: string }).sessionId)));
      attaching.push(attached.catch(() => undefined));
    },
  );
  // Announces the workers already running first: they are watched before the capture is handed out.
  await root.send('Target.setDiscoverTargets', { discover: true });
  await Promise.all(attaching);
}
