/**
 * Qwen's chat stream, parsed incrementally: bytes in, cut anywhere, SSE
 * events out, each applied as one frame to the format that knows it
 * (intl.ts: chat.qwen.ai's `qwen-2026` and `qwen-2025`; domestic.ts: the
 * domestic site's `tongyi-legacy`). The format that answered is recorded as
 * `formatVersion`. Pure.
 *
 * The end: `status: finished` on the answer's delta (2026), `msgStatus:
 * finished` (domestic), or `data: [DONE]` (2025, and after either). Frames
 * after it are the evidence's, never the answer's. A frame that is not JSON,
 * or JSON no format knows, before the end is an unrecognised format; within
 * a known format, a delta or item of an unknown kind that carries text is
 * reported as not applied (the kit's two witnesses decide), one that carries
 * none is kept in the evidence and skipped.
 */
import { SseParser, type SseEvent } from '../../common/sse.js';
import { emptyRaw, type RawAnswer } from '../../common/raw-answer.js';
import { unrecognisedFormat } from '../../../web/signals.js';
import { unplacedOf, type StreamReport } from '../../common/ran-mode.js';
import { textField } from '../../common/frame-content.js';
import { SITE } from './envelope.js';
import { applyDomestic, isDomesticFrame } from './domestic.js';
import { applyIntl, isIntlFrame } from './intl.js';
import { isObj, plainMarkers } from './sources.js';
import { QwenState, type FormatVersion } from './state.js';

export { SITE };

/** One SSE event as the site sent it, for the evidence log. */
export function frameText(e: SseEvent): string {
  return e.event === 'message' ? `data: ${e.data}` : `event: ${e.event}\ndata: ${e.data}`;
}

export class QwenStream {
  private readonly sse = new SseParser();
  private readonly s = new QwenState();
  frames = 0;
  /** Frames after the end marker (recorded, not applied). */
  trailing = 0;

  push(chunk: Uint8Array | string): SseEvent[] {
    return this.sse.push(chunk);
  }

  end(): SseEvent[] {
    return this.sse.end();
  }

  feed(chunk: Uint8Array | string): void {
    for (const e of this.push(chunk)) this.apply(e);
  }

  get finished(): boolean {
    return this.s.finished;
  }

  /** The format that recognised the frames; undefined before the first. */
  get formatVersion(): FormatVersion | undefined {
    return this.s.format;
  }

  /** What ran, by the stream's own witness: reasoning text, a list of sources. */
  ran(): { thinking: boolean; search: boolean } {
    return { thinking: this.s.thinking.trim() !== '', search: this.s.sources !== undefined };
  }

  report(): StreamReport {
    return { ...this.ran(), ignored: this.s.ignored.list(), ...unplacedOf(this.s.unplaced) };
  }

  apply(e: SseEvent): void {
    this.frames++;
    const data = e.data.trim();
    if (data === '[DONE]') {
      if (this.s.finished) this.trailing++;
      this.s.finished = true;
      return;
    }
    if (this.s.finished) {
      this.trailing++;
      return;
    }
    if (data === '') return;
    let f: unknown;
    try {
      f = JSON.parse(data);
    } catch {
      throw unrecognisedFormat(SITE, `a frame that is not JSON: ${data.slice(0, 80)}`);
    }
    if (!isObj(f))
      throw unrecognisedFormat(SITE, `a frame that is not an object: ${data.slice(0, 80)}`);
    if (isDomesticFrame(f)) applyDomestic(this.s, f);
    else if (isIntlFrame(f)) applyIntl(this.s, f);
    else this.unknownFrame(f, data);
  }

  /** JSON no format names: bookkeeping when it holds no text; text before any format is drift. */
  private unknownFrame(f: Record<string, unknown>, data: string): void {
    const keys = Object.keys(f).slice(0, 4).join(', ');
    const field = textField(f);
    if (!field) this.s.ignored.add(`a frame with keys ${keys}`);
    else if (this.s.format === undefined)
      throw unrecognisedFormat(SITE, `a first frame no format knows: ${data.slice(0, 80)}`);
    else this.s.unplaced.add(`a frame with keys ${keys}, text in "${field}"`);
  }

  /** The answer so far (complete once `finished`). */
  result(): RawAnswer {
    const raw = emptyRaw();
    raw.content = plainMarkers(this.s.text);
    raw.reasoningContent = this.s.thinking.trim();
    raw.refusal = this.s.refusal;
    raw.searchResults = [...(this.s.sources ?? [])];
    return raw;
  }
}
