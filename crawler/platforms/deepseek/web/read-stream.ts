/**
 * Reads the captured chat stream into the parser, recording every frame in
 * the evidence before it is applied (so the frame that failed is kept too).
 * Stops at the end of the stream; after the end marker it waits only a
 * moment for the trailing title and close events; a stream that stalls
 * without its end marker is left to the DOM fallback. Resolves true when the
 * stream itself ended (not stalled).
 */
import type { EvidenceLog } from '../../../web/evidence-log.js';
import { DeepseekStream, frameText } from './stream.js';

/** Silence after which a stream without its end marker counts as stalled. */
export const STALL_MS = 20_000;
/** How long the trailing events after FINISHED may take. */
export const TRAILER_MS = 2_000;

type Next = IteratorResult<Buffer> | 'idle';

function nextWithin(it: AsyncIterator<Buffer>, ms: number, signal: AbortSignal): Promise<Next> {
  return new Promise<Next>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal.reason ?? new Error('aborted'));
    };
    const timer = setTimeout(() => {
      done();
      resolve('idle');
    }, ms);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    it.next().then(
      (r) => {
        done();
        resolve(r);
      },
      (err: unknown) => {
        done();
        reject(err);
      },
    );
  });
}

export async function readStream(
  chunks: AsyncIterable<Buffer>,
  parser: DeepseekStream,
  evidence: EvidenceLog,
  signal: AbortSignal,
  o: { stallMs?: number } = {},
): Promise<boolean> {
  const stallMs = o.stallMs ?? STALL_MS;
  const it = chunks[Symbol.asyncIterator]();
  const take = (events: ReturnType<DeepseekStream['push']>) => {
    for (const e of events) {
      evidence.frame(frameText(e));
      parser.apply(e);
    }
  };
  for (;;) {
    const next = await nextWithin(it, parser.finished ? TRAILER_MS : stallMs, signal);
    if (next === 'idle') {
      if (!parser.finished) evidence.note(`the stream stalled for ${stallMs} ms`);
      return false;
    }
    if (next.done) {
      take(parser.end());
      return true;
    }
    take(parser.push(next.value));
  }
}

/** The whole body of a short response (an error envelope). */
export async function readAll(chunks: AsyncIterable<Buffer>, signal: AbortSignal): Promise<string> {
  const parts: Buffer[] = [];
  const it = chunks[Symbol.asyncIterator]();
  for (;;) {
    const next = await nextWithin(it, 10_000, signal);
    if (next === 'idle' || next.done) break;
    parts.push(next.value);
  }
  return Buffer.concat(parts).toString('utf8');
}
