/**
 * The one loop that reads a captured chat call into a site's frame reader.
 * It stops when the stream closes, when it stalls without its end marker
 * (the kit then asks the page), or shortly after the end marker: frames that
 * follow the end (a trailing `finish`, title, close) are still recorded by
 * the reader, and nothing they contain can turn a complete answer into a
 * failure (the failure is noted in the evidence instead), nor can the
 * connection failing after it.
 */
import type { Evidence } from '../platforms/types.js';
import { abortable } from './dom-wait.js';
import type { StreamReport } from '../platforms/common/ran-mode.js';
import type { FrameReader } from './site-spec.js';

/** How long the trailing frames after the end marker may take. */
export const TRAILER_MS = 1_000;

export type ReadEnd = 'ended' | 'stalled' | 'trailer-done';

function nextWithin<T>(it: AsyncIterator<T>, ms: number, signal: AbortSignal) {
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<'idle'>((r) => (timer = setTimeout(() => r('idle'), ms)));
  return abortable(
    Promise.race([it.next(), idle]),
    signal,
    'the answer stream did not finish in time',
  ).finally(() => clearTimeout(timer));
}

export async function readFrames(
  chunks: AsyncIterable<Buffer>,
  reader: FrameReader,
  o: { stallMs: number; evidence: Evidence; signal: AbortSignal },
): Promise<ReadEnd> {
  const it = chunks[Symbol.asyncIterator]();
  const afterEnd = (step: () => void) => {
    if (!reader.complete) return step();
    try {
      step();
    } catch (err) {
      o.evidence.note(`after the end marker, ignored: ${(err as Error).message}`);
    }
  };
  for (;;) {
    let next: Awaited<ReturnType<typeof nextWithin<Buffer>>>;
    try {
      next = await nextWithin(it, reader.complete ? TRAILER_MS : o.stallMs, o.signal);
    } catch (err) {
      // A connection the page or the browser drops after the end marker takes nothing from
      // the answer the marker completed (a page may cancel its read once it has the end).
      if (!reader.complete || o.signal.aborted) throw err;
      o.evidence.note(`after the end marker, the stream failed: ${(err as Error).message}`);
      return 'trailer-done';
    }
    if (next === 'idle') {
      if (reader.complete) return 'trailer-done';
      o.evidence.note(`the stream stalled for ${o.stallMs} ms without its end marker`);
      return 'stalled';
    }
    if (next.done) {
      afterEnd(() => reader.end());
      return 'ended';
    }
    afterEnd(() => reader.push(next.value));
  }
}

/** The whole (short) body of a response that is not the stream: the site's error. */
export async function readBody(
  chunks: AsyncIterable<Buffer>,
  signal: AbortSignal,
  waitMs = 3_000,
): Promise<string> {
  const parts: Buffer[] = [];
  const it = chunks[Symbol.asyncIterator]();
  for (;;) {
    const next = await nextWithin(it, waitMs, signal);
    if (next === 'idle' || next.done) break;
    parts.push(next.value);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** A parser that takes bytes as they come, with what the kit asks of it: a FrameReader. */
export function readerOver<P extends { push(chunk: Buffer): void; end(): void }>(
  parser: P,
  o: {
    complete(): boolean;
    formatVersion(): string | undefined;
    read(): ReturnType<FrameReader['read']>;
    report?(): StreamReport;
  },
): FrameReader & { parser: P } {
  return {
    parser,
    push: (chunk) => parser.push(chunk),
    end: () => parser.end(),
    get complete() {
      return o.complete();
    },
    get formatVersion() {
      return o.formatVersion();
    },
    read: o.read,
    report: o.report,
  };
}

/** A site's event parser as the SSE sites write it: events out of bytes, each then applied. */
export interface EventParser<E> {
  push(chunk: Buffer): E[];
  end(): E[];
  apply(event: E): void;
  readonly finished: boolean;
  readonly formatVersion: string | undefined;
  result(): ReturnType<FrameReader['read']>;
  report(): StreamReport;
}

/**
 * The reader over an event parser: each event into the evidence (as `frameText` prints it)
 * before it is applied; the format named once `started` says a frame was read.
 */
export function eventReader<E, S extends EventParser<E>>(
  evidence: Evidence,
  stream: S,
  frameText: (event: E) => string,
  started: () => boolean = () => true,
) {
  const take = (events: E[]) => {
    for (const e of events) {
      evidence.frame(frameText(e));
      stream.apply(e);
    }
  };
  const feed = {
    stream,
    push: (chunk: Buffer) => take(stream.push(chunk)),
    end: () => take(stream.end()),
  };
  return readerOver(feed, {
    complete: () => stream.finished,
    formatVersion: () => (started() ? stream.formatVersion : undefined),
    read: () => stream.result(),
    report: () => stream.report(),
  });
}
