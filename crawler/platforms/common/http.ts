/**
 * The transport every API driver uses: one POST through `ctx.fetch` (the
 * lease's proxied fetch) under the platform's deadline, errors classified the
 * same way everywhere, and the body read as SSE events or JSON. A deadline or
 * lease abort becomes `timeout`; a broken connection a retryable `failed`.
 */
import { PlatformError, type ApiContext, type Job, type PlatformSettings } from '../types.js';
import { classify, timeoutError, vendorError } from './errors.js';
import { SseParser, type SseEvent } from './sse.js';

/** Each deadline's timeout signal, alive as long as the signal built from it. */
const deadlineSources = new WeakMap<AbortSignal, AbortSignal>();

/** The job's signal, ended also by `settings.timeoutMs` when that is set. */
export function deadlineSignal(job: Job, settings: PlatformSettings): AbortSignal {
  if (settings.timeoutMs <= 0) return job.signal;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = AbortSignal.any([job.signal, timeout]);
  // Node 20's AbortSignal.any holds its sources weakly, and nothing else holds
  // a timeout signal: a garbage collection could drop it before it fired, and
  // the deadline never came (nodejs/node#57736). The combined signal keeps it.
  deadlineSources.set(signal, timeout);
  return signal;
}

/** A transport error's message with its cause (undici puts the socket error there). */
export function describeCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${err.message}: ${typeof code === 'string' ? `${code} ` : ''}${cause.message}`;
  }
  return err.message;
}

/** A thrown transport error as a PlatformError (abort → timeout, anything else → network). */
export function transportError(platform: string, err: unknown, signal: AbortSignal): PlatformError {
  if (err instanceof PlatformError) return err;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof PlatformError) return reason;
    return timeoutError(`${platform}: no complete answer before the deadline`);
  }
  return new PlatformError(
    `network error talking to ${platform}: ${describeCause(err)}`,
    'failed',
    true,
  );
}

export interface Post {
  platform: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
}

/** POSTs JSON; a non-2xx answer is thrown as the vendor's classified error. */
export async function post(ctx: ApiContext, p: Post): Promise<Response> {
  if (p.signal.aborted) throw transportError(p.platform, new Error('aborted'), p.signal);
  let res: Response;
  try {
    res = await ctx.fetch(p.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...p.headers },
      body: JSON.stringify(p.body),
      signal: p.signal,
    });
  } catch (err) {
    throw transportError(p.platform, err, p.signal);
  }
  if (res.ok) return res;
  let text = '';
  try {
    text = await res.text();
  } catch (err) {
    throw transportError(p.platform, err, p.signal);
  }
  throw classify(p.platform, vendorError(res.status, text, res.headers.get('retry-after')));
}

/** Reads a JSON body (a vendor that answered without streaming, or an HTTP-200 error). */
export async function readJson(
  platform: string,
  res: Response,
  signal: AbortSignal,
): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw transportError(platform, err, signal);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PlatformError(`${platform} sent a response that is not JSON`, 'failed', true);
  }
}

export const isEventStream = (res: Response): boolean =>
  (res.headers.get('content-type') ?? '').includes('text/event-stream');

/**
 * The SSE events of a streamed response, as they arrive. Stops reading (and
 * releases the connection) when the consumer stops iterating.
 */
export async function* sseEvents(
  platform: string,
  res: Response,
  signal: AbortSignal,
): AsyncGenerator<SseEvent> {
  if (!res.body) throw new PlatformError(`${platform} sent an empty body`, 'failed', true);
  const parser = new SseParser();
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw transportError(platform, err, signal);
      }
      const events = chunk.done ? parser.end() : parser.push(chunk.value);
      for (const event of events) yield event;
      if (chunk.done) return;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** The JSON of one event's data; a broken chunk is a (retryable) parse failure. */
export function eventJson(platform: string, event: SseEvent): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    throw new PlatformError(
      `${platform} sent a stream chunk that is not JSON: ${event.data.slice(0, 120)}`,
      'failed',
      true,
    );
  }
}

/** The stream closed before its terminator: the answer is incomplete. */
/** An accumulator of a vendor's typed stream events that knows when the answer is complete. */
export interface EventAccumulator {
  push(event: unknown): void;
  /** A whole (non-streamed) JSON reply. */
  absorb(body: Record<string, unknown>): void;
  readonly finished: boolean;
}

/** Feeds the stream (or a whole JSON reply) into `acc`; a stream that ends unfinished was cut off. */
export async function accumulate(
  platform: string,
  res: Response,
  signal: AbortSignal,
  acc: EventAccumulator,
): Promise<void> {
  if (!isEventStream(res)) {
    const body = await readJson(platform, res, signal);
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      acc.absorb(body as Record<string, unknown>);
    return;
  }
  for await (const event of sseEvents(platform, res, signal)) {
    acc.push(eventJson(platform, event));
    if (acc.finished) return;
  }
  throw truncated(platform);
}

export function truncated(platform: string): PlatformError {
  return new PlatformError(
    `${platform}: the answer stream ended before the answer was complete`,
    'failed',
    true,
  );
}

/** `base` + `path`, without doubled slashes. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
