/**
 * The versioned, incremental parser of Kimi's chat stream: bytes in as they
 * arrive (cut anywhere), the answer state out. It recognises the format from
 * the response type or, failing that, the first byte: a Connect envelope
 * (`kimi-connect-1`, see connect-format.ts) or Server-Sent Events
 * (`kimi-sse-legacy`, see legacy-format.ts). Anything else, or answer
 * content either format does not place before the end marker, is an
 * `unrecognised kimi stream format` failure (frames without content are kept
 * in the evidence and not applied); the site's own errors become the signals of
 * crawler/web/signals.ts. Frames after the end marker are recorded (onFrame)
 * and counted, never applied: they cannot undo a complete answer. Pure.
 */
import { SseParser } from '../../common/sse.js';
import type { RawAnswer } from '../../common/raw-answer.js';
import type { StreamReport } from '../../common/ran-mode.js';
import { unrecognisedFormat } from '../../../web/signals.js';
import { AnswerState } from './answer-state.js';
import { EnvelopeReader } from './connect-envelope.js';
import { applyConnect, CONNECT_FORMAT } from './connect-format.js';
import { applyLegacy, LEGACY_FORMAT } from './legacy-format.js';

export type KimiFormat = typeof CONNECT_FORMAT | typeof LEGACY_FORMAT;

export interface KimiParserOptions {
  /** The response's MIME type, when known (`application/connect+json`, `text/event-stream`). */
  mimeType?: string;
  /** Called with every frame as received: Connect envelopes as bytes, SSE data as text. */
  onFrame?: (frame: string | Uint8Array) => void;
}

function formatOfType(mimeType: string | undefined): KimiFormat | undefined {
  if (!mimeType) return undefined;
  if (/connect|grpc/i.test(mimeType)) return CONNECT_FORMAT;
  if (/event-stream/i.test(mimeType)) return LEGACY_FORMAT;
  return undefined;
}

function formatOfFirstByte(byte: number): KimiFormat {
  if (byte === 0x00 || byte === 0x02) return CONNECT_FORMAT;
  // SSE opens with a field name, a comment or a blank line.
  if (/[a-z:\r\n]/.test(String.fromCharCode(byte))) return LEGACY_FORMAT;
  throw unrecognisedFormat('kimi', `a body starting with byte 0x${byte.toString(16)}`);
}

export class KimiStreamParser {
  private readonly state = new AnswerState();
  private format: KimiFormat | undefined;
  private envelopes: EnvelopeReader | undefined;
  private sse: SseParser | undefined;
  private framesSeen = 0;
  /** Frames that arrived after the end marker (recorded, not applied). */
  trailing = 0;

  constructor(private readonly options: KimiParserOptions = {}) {
    this.format = formatOfType(options.mimeType);
  }

  /** The format version that recognised the frames, once the first byte came. */
  get formatVersion(): KimiFormat | undefined {
    return this.format;
  }

  /** The stream's own end marker arrived. */
  get done(): boolean {
    return this.state.done;
  }

  get frames(): number {
    return this.framesSeen;
  }

  /** Feeds bytes; throws a PlatformError for site errors and frames it does not know. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.format ??= formatOfFirstByte(chunk[0]!);
    if (this.format === CONNECT_FORMAT) {
      this.envelopes ??= new EnvelopeReader();
      let envelopes;
      try {
        envelopes = this.envelopes.push(chunk);
      } catch (err) {
        throw unrecognisedFormat('kimi', (err as Error).message);
      }
      for (const env of envelopes) {
        this.framesSeen++;
        this.options.onFrame?.(env.bytes);
        if (this.afterEnd()) continue;
        applyConnect(this.state, env);
      }
    } else {
      this.sse ??= new SseParser();
      for (const event of this.sse.push(chunk)) this.legacy(event);
    }
  }

  /**
   * The body ended: flushes the last SSE event. A half envelope left over is
   * a cut connection, not a format: without the end marker the driver judges
   * completion from the page (`done` stays false).
   */
  end(): void {
    if (this.sse) for (const event of this.sse.end()) this.legacy(event);
  }

  raw(): RawAnswer {
    return this.state.toRaw();
  }

  /** What ran, read from the frames, and what was ignored (crawler/platforms/common/ran-mode.ts). */
  report(): StreamReport {
    return this.state.report();
  }

  private legacy(event: Parameters<typeof applyLegacy>[1]): void {
    this.framesSeen++;
    this.options.onFrame?.(
      event.event === 'message'
        ? `data: ${event.data}`
        : `event: ${event.event}\ndata: ${event.data}`,
    );
    if (!this.afterEnd()) applyLegacy(this.state, event);
  }

  /** Counts a frame that came after the end marker. */
  private afterEnd(): boolean {
    if (!this.state.done) return false;
    this.trailing++;
    return true;
  }
}
