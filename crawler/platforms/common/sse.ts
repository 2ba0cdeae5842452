/**
 * A streaming Server-Sent Events parser (WHATWG "event stream interpretation"):
 * bytes in, events out. Pure: no I/O, no timers.
 *
 * Tolerant of everything real vendors send: comment lines (`: keep-alive`),
 * extra blank lines, LF / CRLF / CR line ends (a CRLF split across two chunks
 * counts once), a UTF-8 BOM, and chunk boundaries anywhere, including inside a
 * multi-byte UTF-8 character (TextDecoder with `stream: true`). Unlike the
 * spec, an event left without its closing blank line at end of input is still
 * delivered by `end()` (some servers omit it after `data: [DONE]`).
 */

export interface SseEvent {
  /** The `event:` field; `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last `id:` seen (the stream's last event id), if any. */
  id?: string;
  /** A `retry:` value in milliseconds, when the event carried one. */
  retry?: number;
}

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  /** Text of the current, not yet terminated, line. */
  private line = '';
  /** The previous chunk ended with CR: a LF at the start of the next one is part of that line end. */
  private afterCR = false;
  private data: string[] = [];
  private eventType = '';
  private lastId: string | undefined;
  private retry: number | undefined;
  /** Comment lines seen so far (without the leading colon); handy in tests and logs. */
  comments = 0;

  /** Feeds one chunk of bytes (or already decoded text); returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.feed(text);
  }

  /** Ends the input: flushes the decoder and delivers a last unterminated event. */
  end(): SseEvent[] {
    const events = this.feed(this.decoder.decode());
    if (this.line !== '') {
      this.processLine(this.line);
      this.line = '';
    }
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private feed(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let start = 0;
    let i = 0;
    if (this.afterCR && text.length > 0) {
      this.afterCR = false;
      if (text.charCodeAt(0) === 10) start = i = 1;
    }
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      const line = this.line + text.slice(start, i);
      this.line = '';
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else {
          this.afterCR = true;
        }
      }
      start = i + 1;
      if (line === '') {
        const event = this.dispatch();
        if (event) events.push(event);
      } else {
        this.processLine(line);
      }
    }
    this.line += text.slice(start);
    return events;
  }

  private processLine(rawLine: string): void {
    // A BOM can only open the stream; TextDecoder already drops it, this covers string input.
    const line = rawLine.charCodeAt(0) === 0xfeff ? rawLine.slice(1) : rawLine;
    if (line.startsWith(':')) {
      this.comments++;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break; // unknown fields are ignored
    }
  }

  private dispatch(): SseEvent | undefined {
    const hadData = this.data.length > 0;
    const event: SseEvent = { event: this.eventType || 'message', data: this.data.join('\n') };
    if (this.lastId !== undefined) event.id = this.lastId;
    if (this.retry !== undefined) event.retry = this.retry;
    this.data = [];
    this.eventType = '';
    this.retry = undefined;
    return hadData ? event : undefined;
  }
}

/** The OpenAI-style end-of-stream sentinel. */
export function isDone(event: SseEvent): boolean {
  return event.data.trim() === '[DONE]';
}

/** Parses a whole stream at once (tests, small bodies). */
export function parseSse(chunks: Iterable<Uint8Array | string>): SseEvent[] {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push(chunk));
  events.push(...parser.end());
  return events;
}
