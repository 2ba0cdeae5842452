/**
 * ChatGPT's chat stream (`POST /backend-api/f/conversation`, older builds
 * `/backend-api/conversation`; text/event-stream), parsed incrementally:
 * bytes in, cut anywhere, SSE events out, each applied as one frame. Pure.
 *
 * Formats, recorded as `parserVersion`:
 * - `chatgpt-v1` (2025–2026, the request's `supported_encodings: ["v1"]`):
 *   `event: delta_encoding` / `"v1"`, then `event: delta` frames of
 *   `{p, o, v}` operations (delta.ts) building one envelope
 *   `{message, conversation_id}` after another, besides typed frames
 *   (`input_message`, `message_marker`, `title_generation`,
 *   `server_ste_metadata`, `moderation`, …); the end is
 *   `{"type": "message_stream_complete"}`, then `data: [DONE]`;
 * - `chatgpt-snapshot` (older builds, xtekky/gpt4free before 2025): every
 *   frame the whole message so far, `{message, conversation_id, error}`, the
 *   last of each message id its state; the end is `data: [DONE]`.
 * Both feed the same messages (messages.ts); the version names the one that
 * answered. Frames after the end are recorded, never applied. A frame of a
 * type this version does not know that holds text before the end is
 * reported as not placed (`report().unplaced`) for the kit's witnesses; an
 * operation the encoding does not define is format drift at once. A
 * `moderation` frame with `blocked: true` is the site's refusal; an `error`
 * in a frame is the site's own failure (envelope.ts).
 */
import { SseParser, type SseEvent } from '../../common/sse.js';
import { emptyRaw, type RawAnswer } from '../../common/raw-answer.js';
import { unrecognisedFormat } from '../../../web/signals.js';
import { textField } from '../../common/frame-content.js';
import { IgnoredFrames, unplacedOf, type StreamReport } from '../../common/ran-mode.js';
import { applyOp, isObj, opOf } from './delta.js';
import { readMessages, type Read } from './messages.js';
import { siteError } from './envelope.js';

export const SITE = 'chatgpt';
export const FORMATS = { current: 'chatgpt-v1', older: 'chatgpt-snapshot' } as const;

type Obj = Record<string, unknown>;

/** Typed frames that carry nothing for the answer. */
const QUIET_TYPES = new Set([
  'input_message',
  'message_marker',
  'title_generation',
  'server_ste_metadata',
  'conversation_detail_metadata',
  'resume_conversation_token',
  'url_moderation',
  'conversation_async_status',
  'heartbeat',
]);
export const BLOCKED = 'This content may violate our usage policies.';

/** One SSE event as the site sent it, for the evidence log. */
export function frameText(e: SseEvent): string {
  return e.event === 'message' ? `data: ${e.data}` : `event: ${e.event}\ndata: ${e.data}`;
}

export class ChatgptStream {
  private readonly sse = new SseParser();
  /** The stream's messages by id, in the order they first came. */
  private readonly messages = new Map<string, Obj>();
  private envelope: Obj = {};
  private last: { p: string; o: string } | undefined;
  private deltas = false;
  private refusal = '';
  private read: Read | undefined;
  /** `message_stream_complete` or `data: [DONE]` arrived. */
  finished = false;
  frames = 0;
  /** Frames after the end (recorded, not applied). */
  trailing = 0;
  conversationId = '';
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
    return this.deltas ? FORMATS.current : FORMATS.older;
  }

  private answer(): Read {
    return (this.read ??= readMessages([...this.messages.values()]));
  }

  /** What ran, by the stream's own witness: thoughts, a search call or its sources. */
  ran(): { thinking: boolean; search: boolean } {
    const r = this.answer();
    return { thinking: r.thinking !== '', search: r.searched };
  }

  /** The model the answer's metadata names (`model_slug`). */
  get model(): string {
    return this.answer().model;
  }

  report(): StreamReport {
    const r = this.answer();
    const ignored = new IgnoredFrames();
    for (const i of [...this.ignored.list(), ...r.ignored]) ignored.add(i);
    const unplaced = new IgnoredFrames();
    for (const u of [...this.unplaced.list(), ...r.unplaced]) unplaced.add(u);
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
    if (data === '[DONE]') {
      this.finished = true;
      return;
    }
    let f: unknown;
    try {
      f = JSON.parse(data);
    } catch {
      throw unrecognisedFormat(SITE, `a frame that is not JSON: ${data.slice(0, 80)}`);
    }
    if (e.event === 'delta_encoding') {
      if (f !== 'v1') throw unrecognisedFormat(SITE, `the delta encoding ${JSON.stringify(f)}`);
      this.deltas = true;
      return;
    }
    if (!isObj(f))
      throw unrecognisedFormat(SITE, `a frame that is not an object: ${data.slice(0, 80)}`);
    this.read = undefined;
    if (typeof f.conversation_id === 'string' && f.conversation_id)
      this.conversationId = f.conversation_id;
    if (e.event === 'delta' || (f.type === undefined && f.message === undefined && 'v' in f))
      return this.delta(f);
    if (typeof f.error === 'string' && f.error) throw siteError(0, f.error);
    if (typeof f.type === 'string') return this.typed(f);
    if (isObj(f.message)) return this.keep(f.message);
    if (f.message === null) return this.ignored.add('a frame whose message is null');
    const field = textField(f);
    if (field) this.unplaced.add(`a frame with text in "${field}"`);
    else this.ignored.add('a frame without content');
  }

  /** One `{p, o, v}` operation on the envelope the stream is building. */
  private delta(f: Obj): void {
    this.deltas = true;
    try {
      const op = opOf(f, this.last);
      if (op.o !== 'patch') this.last = { p: op.p, o: op.o };
      this.envelope = applyOp(this.envelope, op);
    } catch (err) {
      throw unrecognisedFormat(SITE, `a delta frame: ${(err as Error).message}`);
    }
    if (isObj(this.envelope.message)) this.keep(this.envelope.message);
  }

  private keep(message: Obj): void {
    const id = typeof message.id === 'string' ? message.id : `#${this.messages.size}`;
    this.messages.set(id, message);
  }

  private typed(f: Obj): void {
    const type = f.type as string;
    if (type === 'message_stream_complete') {
      this.finished = true;
      return;
    }
    if (type === 'moderation') {
      const m = isObj(f.moderation_response) ? f.moderation_response : {};
      if (m.blocked === true) this.refusal = BLOCKED;
      return;
    }
    if (QUIET_TYPES.has(type)) return;
    const field = textField(f, ['type']);
    if (field) this.unplaced.add(`frame type "${type}" with text in "${field}"`);
    else this.ignored.add(`frame type "${type}" without content`);
  }

  /** The answer so far (complete once `finished`). */
  result(): RawAnswer {
    const raw = emptyRaw();
    const r = this.answer();
    if (this.refusal) raw.refusal = this.refusal;
    else raw.content = r.text;
    raw.reasoningContent = r.thinking;
    raw.searchResults = r.sources;
    return raw;
  }
}
