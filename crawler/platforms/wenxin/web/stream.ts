/**
 * Yiyan's chat stream (`POST /eb/chat/conversation/v2`, text/event-stream),
 * parsed incrementally: bytes in, cut anywhere, SSE events out, each applied
 * as one frame. Pure.
 *
 * Formats, in the order tried (joseph16388/Easy-Ernie `ernie.py`;
 * daijinma/geo_marketing `geo_client2/backend/provider/yiyan.go`;
 * ../shared/web-channel.md "Newer findings"):
 * - `yiyan-2026`: `event:`/`data:` lines without a space after the colon;
 *   `major` (session and chat ids), `state` (progress), `thought` while deep
 *   thinking runs (its `is_end:1` ends the thinking, not the reply), then
 *   `message` frames whose `data.content` are deltas, the sources in
 *   `data.searchCitations.list[{index,title,url,site,wild_abstract}]` on the
 *   first one, and `data.is_end:1` at the end;
 * - `yiyan-2024`: the older `message` frames carrying the cumulative answer
 *   `data.tokens_all` (with `<br>` for line breaks) and the sources at the
 *   frame's top level (`searchCitations.list`, geo_marketing reads both
 *   places). Recognised by `tokens_all` on a frame before the end.
 * Every frame is `{code, msg, data}`; a non-zero `code` inside the stream is
 * the site's error (envelope.ts). Citations in the text are `^[N]^` (the
 * marker Baidu's Qianfan API writes **[inferred for the web page]**),
 * reported as `[N]`. A refusal is a message frame with `is_sensitive: 1`
 * **[inferred]**.
 *
 * Tolerance (common/frame-content.ts): frames after the end are the
 * evidence's; a frame with no content is kept and skipped; a frame of an
 * event this version does not know, or a message whose content field was
 * renamed, that carries text before the end is reported as not applied
 * (`report().unplaced`) for the kit's two witnesses; a frame that is not JSON
 * is unrecognised structure.
 */
import { SseParser, type SseEvent } from '../../common/sse.js';
import { emptyRaw, type RawAnswer, type RawSearchResult } from '../../common/raw-answer.js';
import { unrecognisedFormat } from '../../../web/signals.js';
import { textField } from '../../common/frame-content.js';
import { IgnoredFrames, unplacedOf, type StreamReport } from '../../common/ran-mode.js';
import { failureOf } from './envelope.js';

export const SITE = 'wenxin';
export const FORMATS = ['yiyan-2026', 'yiyan-2024'] as const;
export type FormatVersion = (typeof FORMATS)[number];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Events that carry no answer: ids, progress, the page's own bookkeeping. */
const QUIET_EVENTS = new Set(['major', 'state', 'ping', 'heartbeat', 'usage', 'title']);

/** A search citation as a reference; undefined when it names no web page. */
export function citationOf(v: unknown, position: number): RawSearchResult | undefined {
  if (!isObj(v) || !/^https?:\/\//.test(str(v.url))) return undefined;
  const index = Number(v.index);
  const r: RawSearchResult = {
    index: Number.isInteger(index) && index > 0 ? index : position,
    title: str(v.title),
    url: str(v.url),
  };
  const site = str(v.site);
  if (site) r.site = site;
  const icon = str(v.icon) || str(v.favicon);
  if (icon) r.icon = icon;
  return r;
}

/** One SSE event as the site sent it, for the evidence log (a frame without `event:` is a `message`). */
export function frameText(e: SseEvent): string {
  return `event:${e.event}\ndata:${e.data}`;
}

/** `<br>` line breaks as the older format writes them; `^[N]^` citations as `[N]`. */
export const plainText = (s: string) =>
  s.replace(/<br\s*\/?>/gi, '\n').replace(/\^\[(\d{1,3})\]\^/g, '[$1]');

export class WenxinStream {
  private readonly sse = new SseParser();
  private text = '';
  private thinking = '';
  private refusal = '';
  private citations: RawSearchResult[] | undefined;
  private format: FormatVersion | undefined;
  /** `is_end: 1` on a message frame arrived. */
  finished = false;
  frames = 0;
  /** Frames after the end marker (recorded, not applied). */
  trailing = 0;
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

  /** The format that recognised the answer frames; the newer one until an older frame says otherwise. */
  get formatVersion(): FormatVersion {
    return this.format ?? 'yiyan-2026';
  }

  /** What ran, by the stream's own witness: thought frames with content, a citation list. */
  ran(): { thinking: boolean; search: boolean } {
    return { thinking: this.thinking.trim() !== '', search: this.citations !== undefined };
  }

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
    if (data === '') return this.ignored.add(`an empty ${e.event} frame`);
    let f: unknown;
    try {
      f = JSON.parse(data);
    } catch {
      throw unrecognisedFormat(SITE, `a frame that is not JSON: ${data.slice(0, 80)}`);
    }
    if (!isObj(f))
      throw unrecognisedFormat(SITE, `a frame that is not an object: ${data.slice(0, 80)}`);
    const code = Number(f.code ?? 0);
    if (code !== 0) throw failureOf(200, String(f.code), str(f.msg), f.data);
    this.frame(e.event, f);
  }

  private frame(event: string, f: Obj): void {
    const d = isObj(f.data) ? f.data : undefined;
    switch (event) {
      case 'thought':
        if (d && typeof d.content === 'string') this.thinking += d.content;
        else this.contentless(f, 'a thought frame');
        return;
      case 'message':
        return this.message(f, d);
      default:
        if (QUIET_EVENTS.has(event)) return;
        return this.contentless(f, `event "${event}"`);
    }
  }

  private message(f: Obj, d: Obj | undefined): void {
    const list = (v: unknown) => (isObj(v) && Array.isArray(v.list) ? v.list : undefined);
    const sources = list(d?.searchCitations) ?? list(f.searchCitations);
    if (sources) this.setCitations(sources);
    if (!d) return this.contentless(f, 'a message frame without data');
    const cumulative = typeof d.tokens_all === 'string' ? d.tokens_all : undefined;
    // The older format repeats the whole answer in every frame; the newer one only at the end.
    if (cumulative !== undefined && d.is_end !== 1) this.format = 'yiyan-2024';
    if (this.format === 'yiyan-2024' && cumulative !== undefined) this.text = cumulative;
    else if (typeof d.content === 'string') {
      if (d.is_sensitive === 1) this.refusal += d.content;
      else this.text += d.content;
    } else if (d.is_end !== 1) this.contentless(d, 'a message frame');
    if (d.is_end === 1) this.finished = true;
  }

  /** A frame with no known content field: a sentinel when it holds no text, else unplaced text. */
  private contentless(f: Obj, what: string): void {
    const field = textField(f, ['code', 'msg', 'event', 'searchCitations']);
    if (field) this.unplaced.add(`${what} with text in "${field}"`);
    else this.ignored.add(`${what} without content`);
  }

  private setCitations(list: readonly unknown[]): void {
    this.citations = list.flatMap((c, i) => citationOf(c, i + 1) ?? []);
  }

  /** The answer so far (complete once `finished`). */
  result(): RawAnswer {
    const raw = emptyRaw();
    // Converted whole: a marker or a <br> may be split across two deltas.
    raw.content = plainText(this.text);
    raw.reasoningContent = this.thinking.trim();
    raw.refusal = this.refusal;
    raw.searchResults = [...(this.citations ?? [])];
    return raw;
  }
}
