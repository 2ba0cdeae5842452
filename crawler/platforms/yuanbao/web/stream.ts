/**
 * Yuanbao's chat stream (`POST /api/chat/{conversationId}`,
 * text/event-stream), parsed incrementally: bytes in, cut anywhere, SSE
 * events out, each applied as one frame. Pure.
 *
 * Format `yuanbao-2026` (daijinma/geo_marketing `backend/provider/
 * yuanbao.go`; xln3/platform-v2 `yuanbao_adapter.py`; chenwr727/
 * yuanbao-free-api `src/const.py`): `data:` lines carrying either a bare
 * word that announces what follows (`search_with_text`, `text`, …) or a
 * typed JSON frame: `text` with `msg` (answer text, citations as
 * `[citation:N]`), `think` with `content` (chain of thought), `searchGuid`
 * with `docs` [{index, url, title, quote, web_site_name, publish_time}]
 * (WeChat articles among them), `step` (progress). The end marker is
 * `data: [DONE]`.
 *
 * Tolerance (common/frame-content.ts): frames after the end are the
 * evidence's, never the answer's; a frame that carries no content (the bare
 * `{"type":"text"}` sentinel public 2026 captures open the stream with) is
 * kept in the evidence and skipped; a frame of a type this version does not
 * know, or a text frame whose text field was renamed, that carries text
 * before the end is reported as not applied (`report().unplaced`), for the
 * kit's witnesses to decide. A text frame's text may arrive as `content` as
 * a think frame's does. A refusal is a text
 * frame with `stopReason: "sensitive"` **[inferred from the Hunyuan API's
 * finish reason]**; the location-verification message public reports
 * describe (chenwr727/yuanbao-free-api issue 34, 2026-07) is a frame that
 * asks for it **[its shape inferred]**: the account needs a person.
 */
import { SseParser, type SseEvent } from '../../common/sse.js';
import { emptyRaw, type RawAnswer, type RawSearchResult } from '../../common/raw-answer.js';
import { needsHuman, unrecognisedFormat } from '../../../web/signals.js';
import { textField } from '../../common/frame-content.js';
import { IgnoredFrames, unplacedOf, type StreamReport } from '../../common/ran-mode.js';

export const SITE = 'yuanbao';
export const FORMAT_VERSION = 'yuanbao-2026';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Frame types that carry no answer: progress, ids, the page's own bookkeeping. */
const QUIET_TYPES = new Set(['step', 'meta', 'status', 'traceId', 'replace', 'suggestion']);
const LOCATION = /位置验证|验证位置|定位验证|location/i;

/** A search doc as a reference; undefined when it names no web page. */
export function docOf(v: unknown, position: number): RawSearchResult | undefined {
  if (!isObj(v) || !/^https?:\/\//.test(str(v.url))) return undefined;
  const index = Number(v.index);
  const r: RawSearchResult = {
    index: Number.isInteger(index) && index > 0 ? index : position,
    title: str(v.title),
    url: str(v.url),
  };
  const site = str(v.web_site_name) || str(v.webSiteName);
  if (site) r.site = site;
  const icon = str(v.icon_url) || str(v.favicon);
  if (icon) r.icon = icon;
  return r;
}

/** One SSE event as the site sent it, for the evidence log. */
export function frameText(e: SseEvent): string {
  return e.event === 'message' ? `data: ${e.data}` : `event: ${e.event}\ndata: ${e.data}`;
}

export class YuanbaoStream {
  private readonly sse = new SseParser();
  private text = '';
  private thinking = '';
  private refusal = '';
  private docs: RawSearchResult[] | undefined;
  /** `data: [DONE]` arrived. */
  finished = false;
  frames = 0;
  /** Frames after the end marker (recorded, not applied). */
  trailing = 0;
  /** Frames of types this version does not know, kept in the evidence only. */
  unknown = 0;
  private readonly ignored = new IgnoredFrames();
  private readonly unplaced = new IgnoredFrames();
  /** The stream announced a search (`search_with_text`), whether or not its docs came. */
  announcedSearch = false;
  readonly formatVersion = FORMAT_VERSION;

  push(chunk: Uint8Array | string): SseEvent[] {
    return this.sse.push(chunk);
  }

  end(): SseEvent[] {
    return this.sse.end();
  }

  feed(chunk: Uint8Array | string): void {
    for (const e of this.push(chunk)) this.apply(e);
  }

  /** Whether the stream carried its search docs (the conversation's detail has them otherwise). */
  get hasDocs(): boolean {
    return this.docs !== undefined;
  }

  /** What ran, by the stream's own witness: thinking frames, a search doc list. */
  ran(): { thinking: boolean; search: boolean } {
    return { thinking: this.thinking.trim() !== '', search: this.docs !== undefined };
  }

  /** What ran, what was skipped and what carried text no known field holds (common/ran-mode.ts). */
  report(): StreamReport {
    return { ...this.ran(), ignored: this.ignored.list(), ...unplacedOf(this.unplaced) };
  }

  apply(e: SseEvent): void {
    this.frames++;
    if (this.finished) {
      this.trailing++;
      return;
    }
    const data = e.data.trim();
    if (data === '[DONE]') {
      this.finished = true;
      return;
    }
    if (/^[A-Za-z_]+$/.test(data)) {
      if (data === 'search_with_text') this.announcedSearch = true;
      return;
    }
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
    const type = str(f.type);
    const said = str(f.msg) || str(f.content) || str(f.text);
    if (
      f.verifyType === 'location' ||
      (type !== 'text' && type !== 'think' && LOCATION.test(said))
    ) {
      throw needsHuman(
        SITE,
        `location_verification: ${said || 'the site asks to verify the location'}`,
      );
    }
    switch (type) {
      case 'text': {
        const text = typeof f.msg === 'string' ? f.msg : f.content;
        if (typeof text !== 'string') return this.contentless(f, 'a text frame');
        if (f.stopReason === 'sensitive') this.refusal += text;
        else this.text += text;
        return;
      }
      case 'think':
        this.thinking += said;
        return;
      case 'searchGuid': {
        if (!Array.isArray(f.docs))
          throw unrecognisedFormat(SITE, 'a searchGuid frame without docs');
        this.setDocs(f.docs);
        return;
      }
      default:
        if (QUIET_TYPES.has(type)) return;
        this.unknown++;
        return this.contentless(f, `frame type "${type}"`);
    }
  }

  /** A frame with no known content field: a sentinel when it holds no text, else unplaced text. */
  private contentless(f: Obj, what: string): void {
    const field = textField(f, ['type']);
    if (field) this.unplaced.add(`${what} with text in "${field}"`);
    else this.ignored.add(`${what} without content`);
  }

  /** The docs of the conversation's detail, when the stream lacked them. */
  setDocs(docs: readonly unknown[]): void {
    this.docs = docs.flatMap((d, i) => docOf(d, i + 1) ?? []);
  }

  /** The answer so far (complete once `finished`). */
  result(): RawAnswer {
    const raw = emptyRaw();
    raw.content = this.text.replace(/\[citation:(\d+)\]/g, '[$1]');
    raw.reasoningContent = this.thinking.trim();
    raw.refusal = this.refusal;
    raw.searchResults = [...(this.docs ?? [])];
    return raw;
  }
}
