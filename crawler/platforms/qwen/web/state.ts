/**
 * What a Qwen stream has said so far, whichever format said it: the
 * parsers of each format (intl.ts, domestic.ts) write here, the stream
 * (stream.ts) reads the answer from it. Pure.
 */
import type { RawSearchResult } from '../../common/raw-answer.js';
import { IgnoredFrames } from '../../common/ran-mode.js';

/** The formats, in the order the parser tries them (`formatVersion`, the issue's `parserVersion`). */
export const FORMATS = {
  /** chat.qwen.ai 2026: `response.created`, `thinking_summary` snapshots, `web_search` function calls. */
  intl2026: 'qwen-2026',
  /** chat.qwen.ai 2025: reasoning streamed as `phase: think`, cumulative sources, `data: [DONE]`. */
  intl2025: 'qwen-2025',
  /** The domestic site (qianwen / tongyi): cumulative `contents[]`, `msgStatus` / `contentType`. */
  domestic: 'tongyi-legacy',
} as const;
export type FormatVersion = (typeof FORMATS)[keyof typeof FORMATS];

export class QwenState {
  text = '';
  thinking = '';
  refusal = '';
  /** The sources as last listed (each list replaces the last); undefined: none listed. */
  sources: RawSearchResult[] | undefined;
  /** The stream's own end marker was seen. */
  finished = false;
  format: FormatVersion | undefined;
  readonly ignored = new IgnoredFrames();
  readonly unplaced = new IgnoredFrames();

  /** Marks the format; a later, more specific sign (a 2025-only phase) may refine it. */
  recognise(format: FormatVersion): void {
    this.format = format;
  }
}
