/**
 * DeepSeek's chat stream (`POST /api/v0/chat/completion`, text/event-stream),
 * parsed incrementally: bytes in, cut anywhere (CRLF line ends too), SSE
 * events out; each event is then applied to the response it patches.
 *
 * Versions, recognised by the fragments they carry (extract.ts has the
 * sources): `deepseek-2026` (TOOL_SEARCH / TOOL_OPEN fragments,
 * `[reference:N]`) and `deepseek-2025` (a SEARCH fragment, `[citation:N]`).
 * A stream with neither (no search ran) reads the same in both and is named
 * as the current version.
 *
 * End marker: `response/status` FINISHED. The site's signals inside the
 * stream become signals.ts errors: an `event: hint` with `finish_reason:
 * rate_limit_reached` is a rate limit; status CONTENT_FILTER with its template
 * answer is a refusal. Tolerance (common/frame-content.ts): a frame without
 * content (`{}`, a patch without its value, an event name no version sends
 * holding no text) or a patch outside the fragments that cannot be placed
 * (bookkeeping such as token usage) stays in the evidence and is skipped
 * (`ignored`). An event name no version sends, or a message whose patch value
 * was renamed, that carries text is reported as not applied (`unplaced`) for
 * the kit's witnesses to decide. Unknown structure on the fragments (a
 * fragment type, an operation or patch there, an end status) before the end
 * marker is an unrecognised format, never a partial answer. Frames after the end marker (`finish`,
 * `update_session`, `title`, `close`) are counted and never applied.
 */
import { SseParser, type SseEvent } from '../../common/sse.js';
import type { RawAnswer } from '../../common/raw-answer.js';
import { PlatformError } from '../../types.js';
import { rateLimited, unrecognisedFormat } from '../../../web/signals.js';
import { extract, type Fragment, type Version } from './extract.js';
import { asPatch, isObj, PatchError, PatchState, type Patch } from './patch.js';
import { IgnoredFrames, unplacedOf, type StreamReport } from '../../common/ran-mode.js';
import { textField } from '../../common/frame-content.js';

export const SITE = 'deepseek';
export const FORMAT_VERSIONS: Readonly<Record<Version, string>> = {
  '2026': 'deepseek-2026',
  '2025': 'deepseek-2025',
};

/** Events that carry no answer: the message ids, the session's time, the chat title, the close. */
const QUIET_EVENTS = new Set(['ready', 'update_session', 'title', 'close', 'finish']);
/** The part of the response that holds the answer: a patch there that does not fit is drift. */
const CONTENT_PATH = /^response(\/fragments|$)/;
/** Fragment types each version sends; TEMPLATE_RESPONSE replaces a refused answer. */
const TYPES: Readonly<Record<Version, ReadonlySet<string>>> = {
  '2026': new Set(['THINK', 'TOOL_SEARCH', 'TOOL_OPEN', 'RESPONSE', 'TEMPLATE_RESPONSE']),
  '2025': new Set(['THINK', 'SEARCH', 'RESPONSE', 'TEMPLATE_RESPONSE']),
};
const ONLY_IN: Readonly<Record<string, Version>> = {
  TOOL_SEARCH: '2026',
  TOOL_OPEN: '2026',
  SEARCH: '2025',
};
const STATUSES = new Set(['WIP', 'INCOMPLETE', 'FINISHED', 'CONTENT_FILTER']);

/** One SSE event as the site sent it, for the evidence log. */
export function frameText(e: SseEvent): string {
  return e.event === 'message' ? `data: ${e.data}` : `event: ${e.event}\ndata: ${e.data}`;
}

export class DeepseekStream {
  private readonly sse = new SseParser();
  private readonly state = new PatchState();
  private version: Version | undefined;
  private checked = 0;
  private checkedList: unknown;
  /** The end marker arrived (FINISHED, or a refusal's CONTENT_FILTER). */
  finished = false;
  /** Frames applied so far. */
  frames = 0;
  /** Frames that arrived after the end marker (recorded, not applied). */
  trailing = 0;
  private readonly ignored = new IgnoredFrames();
  private readonly unplaced = new IgnoredFrames();

  /** Feeds bytes as they arrive; returns the events they completed (not yet applied). */
  push(chunk: Uint8Array | string): SseEvent[] {
    return this.sse.push(chunk);
  }

  /** The input has ended: a last unterminated event, if any. */
  end(): SseEvent[] {
    return this.sse.end();
  }

  /** Applies one event; site signals and unknown frames before the end throw PlatformError. */
  apply(e: SseEvent): void {
    this.frames++;
    if (this.finished) {
      this.trailing++;
      return;
    }
    if (e.event === 'hint') return this.hint(e.data);
    if (QUIET_EVENTS.has(e.event)) return;
    if (e.event !== 'message') return this.unknownEvent(e);
    let data: unknown;
    try {
      data = JSON.parse(e.data);
    } catch {
      throw unrecognisedFormat(SITE, `a frame that is not JSON: ${e.data.slice(0, 80)}`);
    }
    if (isObj(data) && !('v' in data)) {
      // No patch value: a sentinel, or text under a renamed field.
      const field = textField(data, ['p', 'o']);
      if (field) return this.unplaced.add(`a patch with text in "${field}" instead of "v"`);
      return this.ignored.add('a frame without a patch value');
    }
    let patch: Patch | undefined;
    try {
      patch = asPatch(data);
      this.state.apply(patch);
      this.checkFragments();
      this.checkStatus();
    } catch (err) {
      if (!(err instanceof PatchError)) throw err;
      if (patch?.p && !CONTENT_PATH.test(patch.p)) return this.ignored.add(`patch ${patch.p}`);
      throw unrecognisedFormat(SITE, err.message);
    }
  }

  /** An event name no version sends: its text, if any, is not applied and said so. */
  private unknownEvent(e: SseEvent): void {
    let data: unknown = e.data;
    try {
      data = JSON.parse(e.data);
    } catch {
      // plain text data: its own content
    }
    const field = typeof data === 'string' ? (data.trim() ? 'data' : undefined) : textField(data);
    if (field) this.unplaced.add(`event "${e.event}" with text in "${field}"`);
    else this.ignored.add(`event "${e.event}"`);
  }

  /** Pushes bytes and applies every event they complete (tests, whole bodies). */
  feed(chunk: Uint8Array | string): void {
    for (const e of this.push(chunk)) this.apply(e);
  }

  get formatVersion(): string {
    return FORMAT_VERSIONS[this.version ?? '2026'];
  }

  /** The answer so far (complete once `finished`). */
  result(): RawAnswer {
    const raw = extract(this.fragments(), this.version ?? '2026');
    if (this.response().status === 'CONTENT_FILTER') {
      raw.refusal =
        this.fragments()
          .filter((f) => f.type === 'TEMPLATE_RESPONSE')
          .map((f) => (typeof f.content === 'string' ? f.content : ''))
          .join('') || 'content filter';
    }
    // The response's `model`: "" in every public capture (so none is recorded); a build that
    // fills it names the model that answered **[inferred]**.
    const model = this.response().model;
    if (typeof model === 'string') raw.model = model.trim();
    return raw;
  }

  /** What ran, read from the frames, and what was ignored (crawler/platforms/common/ran-mode.ts). */
  report(): StreamReport {
    const thinking = this.fragments().some(
      (f) => f.type === 'THINK' && typeof f.content === 'string' && f.content.trim() !== '',
    );
    const search = this.result().searchResults.length > 0;
    return { thinking, search, ignored: this.ignored.list(), ...unplacedOf(this.unplaced) };
  }

  /** The mode flags the stream's own response carries (the request body is the first witness). */
  flags(): { thinking_enabled?: unknown; search_enabled?: unknown } {
    const r = this.response();
    return { thinking_enabled: r.thinking_enabled, search_enabled: r.search_enabled };
  }

  private hint(data: string): void {
    let hint: unknown;
    try {
      hint = JSON.parse(data);
    } catch {
      throw unrecognisedFormat(SITE, `a hint that is not JSON: ${data.slice(0, 80)}`);
    }
    if (!isObj(hint)) throw unrecognisedFormat(SITE, 'a hint that is not an object');
    const content = typeof hint.content === 'string' ? hint.content : '';
    if (hint.finish_reason === 'rate_limit_reached') throw rateLimited(SITE, content);
    if (hint.type === 'error') {
      throw new PlatformError(`${SITE} stopped the answer: ${content}`, 'failed', true);
    }
    throw unrecognisedFormat(SITE, `hint ${JSON.stringify(hint).slice(0, 120)}`);
  }

  private response(): Record<string, unknown> {
    const r = this.state.root.response;
    return isObj(r) ? r : {};
  }

  private fragments(): Fragment[] {
    const list = this.response().fragments;
    return Array.isArray(list) ? (list as Fragment[]) : [];
  }

  private checkFragments(): void {
    const list = this.fragments();
    // Fragments may also be replaced wholesale (a refusal): check a new list from its start.
    if (list !== this.checkedList) {
      this.checkedList = list;
      this.checked = 0;
    }
    for (; this.checked < list.length; this.checked++) {
      const f = list[this.checked];
      const type = isObj(f) && typeof f.type === 'string' ? f.type : '';
      const only = ONLY_IN[type];
      if (only && this.version && only !== this.version) {
        throw unrecognisedFormat(SITE, `a ${type} fragment in a ${this.version} stream`);
      }
      if (only) this.version = only;
      if (!TYPES[this.version ?? '2026'].has(type)) {
        throw unrecognisedFormat(SITE, `fragment type "${type || JSON.stringify(f)}"`);
      }
    }
  }

  private checkStatus(): void {
    const status = this.response().status;
    if (status === undefined) return;
    if (typeof status !== 'string' || !STATUSES.has(status)) {
      throw unrecognisedFormat(SITE, `response status ${JSON.stringify(status)}`);
    }
    if (status === 'FINISHED' || status === 'CONTENT_FILTER') this.finished = true;
  }
}
