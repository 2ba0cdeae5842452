/** Reads a task events stream (Server-Sent Events) in tests, with the project's SSE parser. */
import { SseParser, type SseEvent } from '../../crawler/platforms/common/sse.js';

export interface OpenStream {
  status: number;
  headers: Headers;
  /** The error envelope when the stream was refused. */
  body?: unknown;
  /** Events as they arrive, and whether the server ended the stream. */
  events: SseEvent[];
  /** Heartbeat comment lines seen. */
  heartbeats: number;
  /** The stream's text as received. */
  raw: string;
  ended: Promise<void>;
  /** Resolves with the first event matching, waiting at most `ms`. */
  until(match: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  close(): void;
}

export async function openEvents(
  url: string,
  o: { token?: string; lastEventId?: string } = {},
): Promise<OpenStream> {
  const abort = new AbortController();
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.lastEventId) headers['last-event-id'] = o.lastEventId;
  const res = await fetch(url, { headers, signal: abort.signal });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return {
      status: res.status,
      headers: res.headers,
      body: await res.json(),
      events: [],
      heartbeats: 0,
      raw: '',
      ended: Promise.resolve(),
      until: () => Promise.reject(new Error('no stream')),
      close: () => undefined,
    };
  }
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  const stream: OpenStream = {
    status: res.status,
    headers: res.headers,
    events,
    heartbeats: 0,
    raw: '',
    ended: Promise.resolve(),
    async until(match, ms = 30_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching event in ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => abort.abort(),
  };
  const parser = new SseParser();
  const decoder = new TextDecoder();
  stream.ended = (async () => {
    try {
      for await (const chunk of res.body!) {
        const text = decoder.decode(chunk as Uint8Array, { stream: true });
        stream.raw += text;
        stream.heartbeats += text.split(': ping\n').length - 1;
        events.push(...parser.push(text));
        waiters.splice(0).forEach((w) => w());
      }
      events.push(...parser.end());
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
    waiters.splice(0).forEach((w) => w());
  })();
  return stream;
}
