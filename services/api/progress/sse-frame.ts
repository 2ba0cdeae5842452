/** The Server-Sent Events wire format (WHATWG HTML, "server-sent events"). */

/** One message: JSON has no raw newlines, so `data` is always a single line. */
export function sseFrame(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, it keeps idle proxies from closing the stream. */
export const SSE_HEARTBEAT = ': ping\n\n';

/**
 * The id a resumed stream continues after: `Last-Event-ID` as a number, else 0.
 * Ids only have to increase for the client; the resumed stream starts over
 * with a fresh snapshot, so nothing else depends on it.
 */
export function resumedAfter(lastEventId: string | undefined): number {
  const n = Number(lastEventId);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
