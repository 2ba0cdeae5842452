/**
 * Doubao's chat stream, read incrementally: bytes in (cut anywhere), frames
 * recognised by format version, answer fields out. Pure: no I/O, no timers.
 *
 * - `doubao-2026` (`POST /chat/completion`): named SSE events `SSE_ACK`,
 *   `SSE_HEARTBEAT`, `FULL_MSG_NOTIFY` (the user's own message echoed),
 *   `STREAM_MSG_NOTIFY` (the reply's first snapshot), `STREAM_CHUNK`
 *   (`patch_op[]`: patch_object 1 / 3 carry `patch_value.content_block[]`, 50
 *   the message ext, 102 a `{text}` JSON string), `CHUNK_DELTA {text}`,
 *   `ASYNC_CHUNK_SNAPSHOT`, `SSE_REPLY_END` (end_type 1 ends a message, 3 the
 *   stream), `STREAM_ERROR` and `gateway-error` [web-channel.md; xln3/platform-v2
 *   doubao_adapter.py; daijinma/geo_marketing doubao.go].
 * - `doubao-samantha` (`POST /samantha/chat/completion`): see samantha.ts.
 *
 * Before the end marker, a frame of the other format once one was
 * recognised is an unrecognised format. A frame that carries answer text
 * where no known format puts it (an unknown event such as `STREAM_CHUNK_V2`
 * with `delta_ops[].text`, a text block or delta whose text field was
 * renamed) is kept in the evidence and reported as not applied
 * (`report().unplaced`, common/frame-content.ts): the kit's two witnesses
 * decide, never a silently shorter answer. A frame without content (a named
 * event neither format sends whose data holds no text, an empty delta or
 * patch) is kept in the evidence and skipped (`report().ignored`). Frames after the end marker are
 * recorded (onFrame) and counted, never applied: they cannot undo a complete
 * answer. Site errors become the site signals (site-errors.ts). The answer
 * itself is built by `result()`.
 */
import { SseParser, type SseEvent } from '../../common/sse.js';
import { buildAnswer } from '../../common/raw-answer.js';
import type { Answer } from '../../../../services/shared/contracts/answer.js';
import { PlatformError } from '../../types.js';
import { refused, unrecognisedFormat } from '../../../web/signals.js';
import { BlockAnswer } from './blocks.js';
import { textField } from '../../common/frame-content.js';
import { IgnoredFrames, unplacedOf, type StreamReport } from '../../common/ran-mode.js';
import { KNOWN_EVENT_TYPES, SamanthaAnswer, parseObj, samanthaError } from './samantha.js';
import * as samantha from './samantha.js';
import { SITE, gatewayError, siteError } from './site-errors.js';

export type FormatVersion = 'doubao-2026' | 'doubao-samantha';

const EVENTS_2026 = new Set([
  'SSE_ACK',
  'SSE_HEARTBEAT',
  'FULL_MSG_NOTIFY',
  'STREAM_MSG_NOTIFY',
  'STREAM_CHUNK',
  'CHUNK_DELTA',
  'ASYNC_CHUNK_SNAPSHOT',
  'SSE_REPLY_END',
  'STREAM_ERROR',
  'gateway-error',
]);

/** patch_object values: content blocks, the message ext (follow-ups), a `{text}` JSON string. */
const PATCH_BLOCKS = new Set([1, 3]);
const PATCH_EXT = 50;
const PATCH_TEXT = 102;

/** SSE_REPLY_END's end_type for the end of the whole stream (1 ends one message). */
const STREAM_END = 3;
/** FULL_MSG_NOTIFY content_type of the user's echoed message. */
const ECHO_CONTENT = 9999;
const USER = 1;

/** Doubao's stock refusal ends in "让我们换个话题…" [platform-v2 wall_lexicon.py]. */
const REFUSAL = /换个话题/;
const REFUSAL_MAX_CHARS = 120;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One SSE event as the site sent it, for the evidence log. */
export function frameText(e: SseEvent): string {
  const lines = [];
  if (e.id !== undefined) lines.push(`id: ${e.id}`);
  if (e.event !== 'message') lines.push(`event: ${e.event}`);
  for (const line of e.data.split('\n')) lines.push(`data: ${line}`);
  return lines.join('\n');
}

export class DoubaoStream {
  private readonly sse = new SseParser();
  private readonly blocks = new BlockAnswer();
  private readonly old = new SamanthaAnswer();
  version: FormatVersion | undefined;
  /** The stream's end marker was seen. */
  done = false;
  frames = 0;
  /** Frames that arrived after the end marker (recorded, not applied). */
  trailing = 0;
  private readonly ignored = new IgnoredFrames();

  constructor(private readonly onFrame: (text: string) => void = () => undefined) {}

  /** Feeds bytes; throws the site's signal (PlatformError) as soon as a frame carries one. */
  push(chunk: Uint8Array | string): void {
    for (const e of this.sse.push(chunk)) this.handle(e);
  }

  end(): void {
    for (const e of this.sse.end()) this.handle(e);
  }

  /** Whether the 2026 stream showed the deep-think root block (evidence of the mode that ran). */
  get deepThinkSeen(): boolean {
    return this.blocks.deepThinkSeen;
  }

  /** What ran, read from the frames, and what was ignored (crawler/platforms/common/ran-mode.ts). */
  report(): StreamReport {
    const fromOld = this.version === 'doubao-samantha';
    // The samantha format has no reasoning or search frames: its silence proves nothing.
    const unplaced = unplacedOf(this.blocks.unplaced);
    if (fromOld)
      return { thinking: undefined, search: undefined, ignored: this.ignored.list(), ...unplaced };
    return {
      thinking: this.blocks.deepThinkSeen || this.blocks.thinkingText,
      search: this.blocks.raw().searchResults.length > 0,
      ignored: this.ignored.list(),
      ...unplaced,
    };
  }

  /** The answer; a refusal is no answer (an empty one the kit judges: the witnesses may hold it). */
  result(): Answer {
    const fromOld = this.version === 'doubao-samantha';
    const raw = fromOld ? this.old.raw() : this.blocks.raw();
    const text = raw.content.trim();
    if (REFUSAL.test(text) && text.length <= REFUSAL_MAX_CHARS) throw refused(SITE, text);
    const answer = buildAnswer(raw);
    answer.mediaContent.push(...(fromOld ? this.old : this.blocks).videos.map((v) => ({ ...v })));
    return answer;
  }

  private handle(e: SseEvent): void {
    this.frames++;
    this.onFrame(frameText(e));
    if (this.done) {
      this.trailing++;
      return;
    }
    if (e.data.trim() === '[DONE]') return;
    if (e.event === 'message') return this.handleSamantha(e);
    const data = parseObj(e.data);
    if (!EVENTS_2026.has(e.event)) {
      // An unknown event holding answer text is not applied, and said so; one without is bookkeeping.
      const field = textField(data);
      if (field) return this.blocks.unplaced.add(`event "${e.event}" with text in "${field}"`);
      return this.ignored.add(`event "${e.event}"`);
    }
    this.recognise('doubao-2026', e);
    this.apply2026(e.event, data);
  }

  private apply2026(event: string, data: Obj): void {
    switch (event) {
      case 'STREAM_ERROR':
        throw siteError({
          code: Number(data.error_code ?? 0) || 0,
          message: typeof data.error_msg === 'string' ? data.error_msg : '',
          ...decisionOf(data),
        });
      case 'gateway-error':
        throw siteError(gatewayError(typeof data.message === 'string' ? data.message : ''));
      case 'FULL_MSG_NOTIFY':
      case 'STREAM_MSG_NOTIFY':
        return this.notify(data);
      case 'STREAM_CHUNK':
        return this.chunk(data);
      case 'CHUNK_DELTA': {
        if (typeof data.text === 'string') return this.blocks.delta(data.text);
        const field = textField(data);
        if (field) this.blocks.unplaced.add(`CHUNK_DELTA with text in "${field}"`);
        return;
      }
      case 'ASYNC_CHUNK_SNAPSHOT':
        for (const snap of Array.isArray(data.message_snapshots) ? data.message_snapshots : [])
          if (isObj(snap)) this.addBlocks(snap.content);
        return;
      case 'SSE_REPLY_END':
        if (data.end_type === undefined || data.end_type === STREAM_END) this.done = true;
        return;
      default:
        return; // SSE_ACK, SSE_HEARTBEAT: nothing for the answer
    }
  }

  private recognise(version: FormatVersion, e: SseEvent): void {
    if (this.version === undefined) this.version = version;
    else if (this.version !== version)
      throw unknown(`a ${version} frame in a ${this.version} stream: ${e.data.slice(0, 80)}`);
  }

  private notify(data: Obj): void {
    const message = isObj(data.message) ? data.message : {};
    const meta = isObj(data.meta) ? data.meta : {};
    if (message.user_type === USER || meta.user_type === USER) return;
    if (message.content_type === ECHO_CONTENT) return;
    this.addBlocks(data.content);
  }

  private chunk(data: Obj): void {
    for (const op of Array.isArray(data.patch_op) ? data.patch_op : []) {
      if (!isObj(op) || !isObj(op.patch_value)) continue;
      const value = op.patch_value;
      if (PATCH_BLOCKS.has(op.patch_object as number)) this.addBlocks(value);
      else if (op.patch_object === PATCH_EXT) this.blocks.addExt(value);
      else if (op.patch_object === PATCH_TEXT && typeof value.content === 'string') {
        const text = parseObj(value.content).text;
        if (typeof text === 'string') this.blocks.delta(text);
      } else this.ignored.add(`patch_object ${String(op.patch_object)}`);
    }
  }

  private addBlocks(holder: unknown): void {
    if (!isObj(holder) || !Array.isArray(holder.content_block)) return;
    for (const b of holder.content_block) this.blocks.add(b);
  }

  private handleSamantha(e: SseEvent): void {
    const frame = parseObj(e.data);
    const type = frame.event_type;
    if (typeof type !== 'number' || typeof frame.event_data !== 'string')
      throw unknown(`frame ${e.data.slice(0, 80)}`);
    if (!KNOWN_EVENT_TYPES.includes(type)) throw unknown(`event_type ${type}`);
    this.recognise('doubao-samantha', e);
    const data = parseObj(frame.event_data);
    if (type === samantha.ERROR) throw siteError(samanthaError(data));
    if (type === samantha.END) this.done = true;
    else if (type === samantha.MESSAGE) this.old.message(data);
  }
}

function unknown(detail: string): PlatformError {
  return unrecognisedFormat(SITE, detail);
}

/** STREAM_ERROR's risk-control decision (`extra.decision`, a JSON string). */
function decisionOf(data: Obj): { decision?: string } {
  const extra = isObj(data.extra) ? data.extra : {};
  const d = extra.decision;
  if (typeof d === 'string' && d) return { decision: d };
  if (isObj(d)) return { decision: JSON.stringify(d) };
  return {};
}
