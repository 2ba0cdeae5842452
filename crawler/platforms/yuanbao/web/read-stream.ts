/**
 * Reads the captured chat stream into the parser, recording every frame in
 * the evidence before it is applied (so the frame that failed is kept too).
 * After `[DONE]` it waits only a moment for trailing frames, which are
 * recorded and never change the answer; a stream that stalls without its end
 * marker is left to the DOM fallback.
 */
import type { EvidenceLog } from '../../../web/evidence-log.js';
import { frameText, type YuanbaoStream } from './stream.js';

/** How long trailing frames after `[DONE]` may take. */
const TRAILER_MS = 1_000;

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
  parser: YuanbaoStream,
  evidence: EvidenceLog,
  signal: AbortSignal,
  stallMs: number,
): Promise<void> {
  const it = chunks[Symbol.asyncIterator]();
  const take = (events: ReturnType<YuanbaoStream['push']>) => {
    for (const e of events) {
      evidence.frame(frameText(e));
      parser.apply(e);
    }
  };
  for (;;) {
    const next = await nextWithin(it, parser.finished ? TRAILER_MS : stallMs, signal);
    if (next === 'idle') {
      if (!parser.finished) evidence.note(`the stream stalled for ${stallMs} ms`);
      return;
    }
    if (next.done) return take(parser.end());
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
