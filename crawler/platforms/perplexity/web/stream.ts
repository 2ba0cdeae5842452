/**
 * Perplexity's answer stream (`POST /rest/sse/perplexity_ask`,
 * text/event-stream), parsed incrementally: bytes in, cut anywhere, SSE
 * events out, each applied as one frame. Pure.
 *
 * Every `event: message` carries one JSON frame {backend_uuid,
 * context_uuid, display_model, status, final_sse_message, blocks[]}; each
 * block names its `intended_usage` and holds either its whole value under
 * its field (`markdown_block`, `web_result_block`, `plan_block`, …) or a
 * `diff_block` {field, patches[]} that patches the value the earlier frames
 * left (patch.ts). The answer is the patched value, never the frames'
 * values concatenated. The end is the frame with `final_sse_message: true`
 * (older builds: `final: true`), or `event: end_of_stream`; frames after it
 * are recorded, never applied. `status: "FAILED"` is the site's error in
 * the stream (a query limit among them); `status: "BLOCKED"` a refusal
 * **[inferred]**.
 *
 * Formats, recorded as `parserVersion`:
 * - `pplx-diff-2025`: blocks patched by `diff_block` (the page asks for it:
 *   `supported_block_use_cases` includes `diff_blocks`; gpt4free 2025);
 * - `pplx-blocks-2024`: each frame repeats every block whole (a snapshot).
 * Both are read by the same rules; the version names the one that answered.
 */
import { SseParser, type SseEvent } from '../../common/sse.js';
import { PlatformError } from '../../types.js';
import { emptyRaw, type RawAnswer, type RawSearchResult } from '../../common/raw-answer.js';
import { needsHuman, rateLimited, unrecognisedFormat } from '../../../web/signals.js';
import { textField } from '../../common/frame-content.js';
import { IgnoredFrames, unplacedOf, type StreamReport } from '../../common/ran-mode.js';
import { applyPatch, isPatch } from './patch.js';
import {
  ANSWER_FIELD,
  citeMarks,
  isObj,
  markdownText,
  PLAN_FIELD,
  planText,
  QUIET_FIELDS,
  SOURCE_FIELDS,
  strayMarkdown,
  webResultsOf,
} from './blocks.js';

export const SITE = 'perplexity';
export const FORMATS = { current: 'pplx-diff-2025', older: 'pplx-blocks-2024' } as const;

type Obj = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const LIMIT = /limit|quota|too many/i;

/** One SSE event as the site sent it, for the evidence log. */
export function frameText(e: SseEvent): string {
  return e.event === 'message' ? `data: ${e.data}` : `event: ${e.event}\ndata: ${e.data}`;
}

export class PerplexityStream {
  private readonly sse = new SseParser();
  /** Each block's current value, by field, in the order the blocks first came. */
  private readonly blocks = new Map<string, unknown>();
  private diffs = false;
  private refusal = '';
  private related: string[] = [];
  /** The final frame (or `end_of_stream`) arrived. */
  finished = false;
  frames = 0;
  /** Frames after the end (recorded, not applied). */
  trailing = 0;
  /** The model the frames name (`display_model`), for the evidence. */
  displayModel = '';
  /** The thread the answer belongs to (`backend_uuid`), for follow-ups. */
  backendUuid = '';
  private readonly ignored = new IgnoredFrames();
  private readonly unplaced = new IgnoredFrames();

  push(chunk: Uint8Array | string): SseEvent[] {
    return this.sse.push(chunk);
  }

  end(): SseEvent[] {
    return this.sse.end();
  }

  feed(chunk: Uint8Array | string): void {
    for (const e of this.push(chunk)) this.apply(e);
  }

  get formatVersion(): string {
    return this.diffs ? FORMATS.current : FORMATS.older;
  }

  /** What ran, by the stream's own witness: plan steps (a thinking model), web results. */
  ran(): { thinking: boolean; search: boolean } {
    return {
      thinking: planText(this.blocks.get(PLAN_FIELD)) !== '',
      search: this.sources().length > 0,
    };
  }

  /** What ran, what was skipped and what carried text no known field holds (common/ran-mode.ts). */
  report(): StreamReport {
    const unplaced = new IgnoredFrames();
    for (const u of this.unplaced.list()) unplaced.add(u);
    const stray = strayMarkdown(this.blocks.get(ANSWER_FIELD));
    if (stray) unplaced.add(`a markdown block with text in "${stray}"`);
    return { ...this.ran(), ignored: this.ignored.list(), ...unplacedOf(unplaced) };
  }

  apply(e: SseEvent): void {
    this.frames++;
    if (this.finished) {
      this.trailing++;
      return;
    }
    if (e.event === 'end_of_stream') {
      this.finished = true;
      return;
    }
    const data = e.data.trim();
    if (data === '' || data === '{}') return;
    let f: unknown;
    try {
      f = JSON.parse(data);
    } catch {
      throw unrecognisedFormat(SITE, `a frame that is not JSON: ${data.slice(0, 80)}`);
    }
    if (!isObj(f))
      throw unrecognisedFormat(SITE, `a frame that is not an object: ${data.slice(0, 80)}`);
    this.frame(f);
  }

  private frame(f: Obj): void {
    if (str(f.display_model)) this.displayModel = str(f.display_model);
    if (str(f.backend_uuid)) this.backendUuid = str(f.backend_uuid);
    const status = str(f.status).toUpperCase();
    if (status === 'FAILED') throw this.failure(f);
    if (Array.isArray(f.blocks)) for (const b of f.blocks) this.block(b);
    else if (!status) this.ignored.add('a frame without blocks or status');
    if (Array.isArray(f.related_queries))
      this.related = f.related_queries
        .map((q) => (isObj(q) ? str(q.text) : str(q)))
        .filter(Boolean);
    if (status === 'BLOCKED') {
      this.refusal = str(f.text) || markdownText(this.blocks.get(ANSWER_FIELD)) || 'blocked';
      this.finished = true;
    }
    if (f.final_sse_message === true || f.final === true) this.finished = true;
  }

  private block(b: unknown): void {
    if (!isObj(b)) return this.ignored.add('a block that is not an object');
    if (isObj(b.diff_block)) {
      const diff = b.diff_block;
      const field = str(diff.field);
      if (!field || !Array.isArray(diff.patches))
        throw unrecognisedFormat(SITE, 'a diff_block without its field or patches');
      this.diffs = true;
      let value = this.blocks.get(field);
      for (const p of diff.patches) {
        if (!isPatch(p)) throw unrecognisedFormat(SITE, `a ${field} patch without op or path`);
        try {
          value = applyPatch(value, p);
        } catch (err) {
          throw unrecognisedFormat(SITE, `a ${field} patch: ${(err as Error).message}`);
        }
      }
      return this.keep(field, value);
    }
    // A whole block: its one field other than the block's own bookkeeping.
    const field = Object.keys(b).find((k) => k.endsWith('_block'));
    if (!field)
      return this.ignored.add(`a ${str(b.intended_usage) || 'nameless'} block without a value`);
    this.keep(field, b[field]);
  }

  /** A block's new value; an unknown field is recorded (unplaced when it holds text). */
  private keep(field: string, value: unknown): void {
    this.blocks.set(field, value);
    if (field === ANSWER_FIELD || field === PLAN_FIELD || SOURCE_FIELDS.has(field)) return;
    if (QUIET_FIELDS.has(field)) return this.ignored.add(`a ${field}`);
    const text = textField(value);
    if (text) this.unplaced.add(`a ${field} with text in "${text}"`);
    else this.ignored.add(`a ${field} without content`);
  }

  /** The in-stream error as the signal it is. */
  private failure(f: Obj): Error {
    const code = str(f.error_code);
    const said = [code, str(f.error_message) || str(f.text)].filter(Boolean).join(' ') || 'FAILED';
    if (LIMIT.test(said)) return rateLimited(SITE, said);
    if (/auth|login|session/i.test(said)) return needsHuman(SITE, `login wall: ${said}`);
    return new PlatformError(`${SITE} failed the answer in its stream: ${said}`, 'failed', true);
  }

  private sources(): RawSearchResult[] {
    for (const [field, v] of this.blocks)
      if (SOURCE_FIELDS.has(field)) {
        const r = webResultsOf(v);
        if (r && r.length > 0) return r;
      }
    return [];
  }

  /** The answer as the blocks hold it now (complete once `finished`). */
  result(): RawAnswer {
    const raw = emptyRaw();
    if (this.refusal) raw.refusal = this.refusal;
    else raw.content = citeMarks(markdownText(this.blocks.get(ANSWER_FIELD)));
    raw.reasoningContent = planText(this.blocks.get(PLAN_FIELD));
    raw.searchResults = this.sources().map((s, i) => ({ ...s, index: i + 1 }));
    raw.relatedQuestions = [...this.related];
    return raw;
  }
}
