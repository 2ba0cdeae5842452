/**
 * ChatGLM's chat stream (`POST /chatglm/backend-api/assistant/stream`,
 * text/event-stream), parsed incrementally: bytes in, cut anywhere, SSE
 * events out, each applied as one frame. Pure.
 *
 * Every `data:` line is one JSON frame `{id, conversation_id, parts, status,
 * last_error}` whose `parts[].content[]` is a CUMULATIVE SNAPSHOT of the
 * whole answer so far (snapshot.ts): each frame's parts replace the last
 * ones, and nothing is ever appended to what an earlier frame said. The
 * end is the frame with `status: "finish"`; `status: "intervene"` is the
 * site's content stop, its `last_error.intervene_text` the refusal
 * (LLM-Red-Team/glm-free-api `createTransStream`). Frames after the end are
 * recorded, never applied.
 *
 * Formats, recorded as `parserVersion`:
 * - `glm-2025` (xiaoY233/GLM-Free-API, 2025-2026): parts carry `logic_id`;
 *   `think` items, `tool_result` search results with `match_key`, text
 *   citing them as `【turn0search1】`;
 * - `glm-2024` (LLM-Red-Team/glm-free-api): parts without `logic_id`;
 *   `quote_result` sources in `meta_data.metadata_list`, citations
 *   `【N†来源】`.
 * Both are read by the same rules; the version names the one that answered.
 */
import { SseParser, type SseEvent } from '../../common/sse.js';
import { emptyRaw, type RawAnswer } from '../../common/raw-answer.js';
import { unrecognisedFormat } from '../../../web/signals.js';
import { IgnoredFrames, unplacedOf, type StreamReport } from '../../common/ran-mode.js';
import { citeMarks, isObj, readSnapshot, type Snapshot } from './snapshot.js';

export const SITE = 'zhipu';
export const FORMATS = { current: 'glm-2025', older: 'glm-2024' } as const;

/** One SSE event as the site sent it, for the evidence log. */
export function frameText(e: SseEvent): string {
  return e.event === 'message' ? `data: ${e.data}` : `event: ${e.event}\ndata: ${e.data}`;
}

export class ZhipuStream {
  private readonly sse = new SseParser();
  private snapshot: Snapshot = readSnapshot([]);
  private refusal = '';
  private logicIds = false;
  /** The `finish` (or `intervene`) frame arrived. */
  finished = false;
  frames = 0;
  /** Snapshots applied: each replaced the one before. */
  snapshots = 0;
  /** Frames after the end (recorded, not applied). */
  trailing = 0;
  /** The conversation the stream belongs to, as its frames name it. */
  conversationId = '';
  /** Frames that were neither a snapshot nor a status (kept in the evidence). */
  private readonly frameLevel: string[] = [];

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
    return this.logicIds ? FORMATS.current : FORMATS.older;
  }

  /** What ran, by the stream's own witness: thinking items, a search item. */
  ran(): { thinking: boolean; search: boolean } {
    return { thinking: this.snapshot.thinking.trim() !== '', search: this.snapshot.searched };
  }

  /** What ran, what was skipped and what carried text no known field holds (common/ran-mode.ts). */
  report(): StreamReport {
    // The last snapshot's items only: an earlier snapshot's are gone from the answer.
    const ignored = new IgnoredFrames();
    for (const i of [...this.frameLevel, ...this.snapshot.ignored]) ignored.add(i);
    const unplaced = new IgnoredFrames();
    for (const u of this.snapshot.unplaced) unplaced.add(u);
    return { ...this.ran(), ignored: ignored.list(), ...unplacedOf(unplaced) };
  }

  apply(e: SseEvent): void {
    this.frames++;
    if (this.finished) {
      this.trailing++;
      return;
    }
    const data = e.data.trim();
    if (data === '') return;
    let f: unknown;
    try {
      f = JSON.parse(data);
    } catch {
      throw unrecognisedFormat(SITE, `a frame that is not JSON: ${data.slice(0, 80)}`);
    }
    if (!isObj(f))
      throw unrecognisedFormat(SITE, `a frame that is not an object: ${data.slice(0, 80)}`);
    if (typeof f.conversation_id === 'string' && f.conversation_id)
      this.conversationId = f.conversation_id;
    if (Array.isArray(f.parts)) {
      // The whole answer as it stands now: it replaces the last snapshot, never adds to it.
      this.snapshot = readSnapshot(f.parts);
      if (this.snapshot.logicIds) this.logicIds = true;
      this.snapshots++;
    } else if (f.status === undefined) {
      this.frameLevel.push('a frame without parts or status');
    }
    if (f.status === 'intervene') {
      const last = isObj(f.last_error) ? f.last_error : {};
      this.refusal =
        (typeof last.intervene_text === 'string' && last.intervene_text) ||
        this.snapshot.text ||
        'intervene';
      this.finished = true;
    } else if (f.status === 'finish') {
      this.finished = true;
    }
  }

  /** The answer as the last snapshot holds it (complete once `finished`). */
  result(): RawAnswer {
    const raw = emptyRaw();
    const { text, thinking, sources } = this.snapshot;
    if (this.refusal) raw.refusal = this.refusal;
    else raw.content = citeMarks(text, sources);
    raw.reasoningContent = thinking.trim();
    raw.searchResults = sources.map(({ key: _key, ...s }, i) => ({ ...s, index: i + 1 }));
    return raw;
  }
}
