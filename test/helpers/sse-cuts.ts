/** Feeds a recorded stream to the SSE parser cut at every byte boundary (helper for parser tests). */
import { SseParser, type SseEvent } from '../../crawler/platforms/common/sse.js';

/** The events of `stream`, once per cut position; all must be the same. */
export function eventsAtEveryCut(stream: string): SseEvent[][] {
  const bytes = new TextEncoder().encode(stream);
  const runs: SseEvent[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) {
    const p = new SseParser();
    runs.push([...p.push(bytes.subarray(0, cut)), ...p.push(bytes.subarray(cut)), ...p.end()]);
  }
  return runs;
}
