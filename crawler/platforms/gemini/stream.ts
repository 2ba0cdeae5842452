/**
 * Gemini generateContent output, pure. Streaming (`alt=sse`) sends one whole
 * GenerateContentResponse per event with only the new parts and no
 * terminating sentinel: the stream just closes, and the last chunk carries
 * `finishReason` and the `groundingMetadata`.
 *
 * Sources are `groundingChunks[].web` (an opaque Google redirect `uri`, kept
 * as is, and a `title` that is the publisher's domain); the cited subset is
 * the chunks that `groundingSupports` tie to a span of the answer. Segment
 * offsets are UTF-8 byte offsets (end exclusive, `startIndex` left out when
 * 0), so a support only counts when its span lies inside the answer text.
 * Each chunk names the model version that answered (`modelVersion`).
 */
import { emptyRaw, type RawAnswer } from '../common/raw-answer.js';
import { arr, isObj, str } from '../common/openai-stream.js';
import { errorFields, type VendorError } from '../common/errors.js';

type Obj = Record<string, unknown>;

/** Finish reasons that mean the answer was withheld. */
const BLOCKED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'LANGUAGE',
  'IMAGE_SAFETY',
]);

export interface Segment {
  startIndex?: number;
  endIndex?: number;
}

/** The text a segment covers, or undefined when its byte span is not inside `text`. */
export function segmentText(text: string, segment: Segment): string | undefined {
  const bytes = new TextEncoder().encode(text);
  const start = segment.startIndex ?? 0;
  const end = segment.endIndex ?? 0;
  if (!(start >= 0 && end > start && end <= bytes.length)) return undefined;
  return new TextDecoder().decode(bytes.subarray(start, end));
}

export class GeminiAccumulator {
  readonly raw: RawAnswer = emptyRaw();
  finishReason: string | undefined;
  blockReason: string | undefined;
  error: VendorError | undefined;
  private supports: { segment: Segment; chunks: number[] }[] = [];

  push(chunk: unknown): void {
    if (!isObj(chunk)) return;
    if (isObj(chunk.error)) {
      const f = errorFields(chunk);
      this.error = { status: 0, code: f.code, message: f.message };
      if (f.retry !== undefined) this.error.retryAfterSeconds = f.retry;
      if (f.quota) this.error.quota = f.quota;
      return;
    }
    this.raw.model ||= str(chunk.modelVersion) ?? '';
    if (isObj(chunk.promptFeedback) && str(chunk.promptFeedback.blockReason)) {
      this.blockReason = chunk.promptFeedback.blockReason as string;
    }
    const candidate = arr(chunk.candidates).find(
      (c) => isObj(c) && (c.index === undefined || c.index === 0),
    );
    if (!isObj(candidate)) return;
    const content = isObj(candidate.content) ? candidate.content : {};
    for (const part of arr(content.parts)) {
      if (!isObj(part) || typeof part.text !== 'string') continue;
      // Thought parts are summaries of the thinking, never the raw chain.
      if (part.thought === true) this.raw.reasoningSummary += part.text;
      else this.raw.content += part.text;
    }
    if (str(candidate.finishReason)) this.finishReason = candidate.finishReason as string;
    if (isObj(candidate.groundingMetadata)) this.grounding(candidate.groundingMetadata);
  }

  /** Why the answer was withheld, if it was. */
  get blocked(): string | undefined {
    if (this.blockReason) return `promptFeedback.blockReason ${this.blockReason}`;
    if (this.finishReason && BLOCKED.has(this.finishReason))
      return `finishReason ${this.finishReason}`;
    return undefined;
  }

  /** The cited chunk indices (1-based), from supports whose span is in the answer. */
  finish(): RawAnswer {
    const cited = new Set<number>();
    for (const s of this.supports) {
      if (segmentText(this.raw.content, s.segment) === undefined) continue;
      for (const c of s.chunks) cited.add(c + 1);
    }
    this.raw.citedIndices = [...cited].sort((a, b) => a - b);
    return this.raw;
  }

  private grounding(g: Obj): void {
    const chunks = arr(g.groundingChunks);
    if (chunks.length > 0) {
      this.raw.searchResults = chunks.flatMap((c, i) => {
        const web = isObj(c) && isObj(c.web) ? c.web : undefined;
        if (!web || !str(web.uri)) return [];
        const title = str(web.title) ?? '';
        // On the Developer API the title is the publisher's domain: it names the site.
        return [{ index: i + 1, title, url: web.uri as string, site: str(web.domain) ?? title }];
      });
    }
    const supports = arr(g.groundingSupports);
    if (supports.length > 0) {
      this.supports = supports.filter(isObj).map((s) => ({
        segment: (isObj(s.segment) ? s.segment : {}) as Segment,
        chunks: arr(s.groundingChunkIndices).filter((n): n is number => Number.isInteger(n)),
      }));
    }
  }
}
