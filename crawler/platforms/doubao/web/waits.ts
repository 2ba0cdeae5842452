/**
 * The driver's waits, every one ended by the job's signal: a promise raced
 * against the abort, the stream read with a stall limit, and the DOM
 * fallback's completion (answer text stable for 3 × 500 ms, no stop button).
 */
import type { Page } from 'playwright';
import { abortable } from '../../../web/dom-wait.js';
import { PROGRESS_SCRIPT, type Progress } from './page.js';

export const STABLE_INTERVAL_MS = 500;
export const STABLE_READS = 3;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return abortable(new Promise((r) => setTimeout(r, ms)), signal, 'no answer before the deadline');
}

/**
 * Feeds the stream's chunks to `onChunk` until it ends, `stop()` says enough
 * (the end marker), or no byte came for `stallMs`. Returns how it finished.
 */
export async function readChunks(
  chunks: AsyncIterable<Buffer>,
  onChunk: (chunk: Buffer) => void,
  stop: () => boolean,
  stallMs: number,
  signal: AbortSignal,
): Promise<'ended' | 'stopped' | 'stalled'> {
  const it = chunks[Symbol.asyncIterator]();
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<'stall'>((r) => (timer = setTimeout(() => r('stall'), stallMs)));
    try {
      const next = await abortable(
        Promise.race([it.next(), stalled]),
        signal,
        'the answer stream did not finish in time',
      );
      if (next === 'stall') return 'stalled';
      if (next.done) return 'ended';
      onChunk(next.value);
      if (stop()) return 'stopped';
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Waits until the newest answer's text is stable for 3 × 500 ms and no stop button shows. */
export async function domSettled(page: Page, signal: AbortSignal): Promise<string> {
  let last: string | undefined;
  let stable = 0;
  for (;;) {
    const p = (await abortable(
      page.evaluate(PROGRESS_SCRIPT),
      signal,
      'the page did not finish the answer in time',
    )) as Progress;
    stable = p.text === last && !p.streaming ? stable + 1 : 0;
    last = p.text;
    if (stable >= STABLE_READS) return p.text;
    await delay(STABLE_INTERVAL_MS, signal);
  }
}
