/**
 * The OpenAI Responses API wire format (OpenAI, xAI, Volcengine Ark), pure:
 * typed SSE events in, a RawAnswer out. There is no `[DONE]`: the stream ends
 * with `response.completed` (xAI: also `response.done`), `response.incomplete`
 * or `response.failed`; an `error` event can come at any point.
 *
 * The terminal event carries the whole response object, which is
 * authoritative; the deltas before it are kept for a terminal event without
 * `output`. Sources, in the platform's order: `web_search_call.action.sources`
 * (OpenAI, asked for with `include`), the response's `citations` (xAI: every
 * URL its tools encountered, cited or not; docs.x.ai "Citations"), else the
 * annotations' URLs (Ark gives `title`, `site_name`, `logo_url`,
 * `cover_image`, but no offsets). The annotations are the cited subset (xAI's
 * carry only `url`), and only they: xAI also writes inline links `[[1]](url)`
 * numbered by citation, which are no reference numbers. The response object
 * (`response.created`, the terminal event) names the model that answered.
 */
import { addCitedUrl, emptyRaw, type RawAnswer, type RawSearchResult } from './raw-answer.js';
import { arr, isObj, str } from './openai-stream.js';
import type { VendorError } from './errors.js';
import { urlIdentity } from './url-identity.js';

type Obj = Record<string, unknown>;

/** A Responses-API answer cites by annotations only. */
function responsesRaw(): RawAnswer {
  return { ...emptyRaw(), markersCite: false };
}

export class ResponsesAccumulator {
  raw: RawAnswer = responsesRaw();
  /** Set once a terminal event arrived. */
  finished = false;
  error: VendorError | undefined;
  /** `response.incomplete`'s reason, e.g. `max_output_tokens` or `content_filter`. */
  incompleteReason: string | undefined;
  private summaryIndex = -1;

  push(event: unknown): void {
    if (!isObj(event)) return;
    const raw = this.raw;
    switch (str(event.type)) {
      case 'response.output_text.delta':
        raw.content += str(event.delta) ?? '';
        break;
      case 'response.refusal.delta':
        raw.refusal += str(event.delta) ?? '';
        break;
      case 'response.reasoning_summary_text.delta': {
        const i = typeof event.summary_index === 'number' ? event.summary_index : 0;
        if (this.summaryIndex !== -1 && i !== this.summaryIndex) raw.reasoningSummary += '\n\n';
        this.summaryIndex = i;
        raw.reasoningSummary += str(event.delta) ?? '';
        break;
      }
      case 'response.reasoning_text.delta':
        raw.reasoningContent += str(event.delta) ?? '';
        break;
      case 'response.created':
        if (isObj(event.response)) raw.model = str(event.response.model) ?? '';
        break;
      case 'response.output_text.annotation.added':
        this.annotation(event.annotation);
        break;
      case 'response.output_item.done':
        if (isObj(event.item) && event.item.type === 'web_search_call') this.searchCall(event.item);
        break;
      case 'response.completed':
      case 'response.done':
      case 'response.incomplete':
        this.finished = true;
        if (isObj(event.response)) this.absorb(event.response);
        break;
      case 'response.failed': {
        this.finished = true;
        const e = isObj(event.response) && isObj(event.response.error) ? event.response.error : {};
        this.error = { status: 0, code: str(e.code) ?? 'response.failed', message: str(e.message) };
        break;
      }
      case 'error':
        this.finished = true;
        this.error = {
          status: 0,
          code: str(event.code) ?? 'error',
          message: str(event.message) ?? undefined,
        };
        break;
      default:
        break; // progress events (in_progress, searching, …) carry nothing we keep
    }
  }

  /** A whole response object (the terminal event's, or a non-streaming body). */
  absorb(response: Obj): void {
    if (isObj(response.incomplete_details)) {
      this.incompleteReason = str(response.incomplete_details.reason);
    }
    const output = arr(response.output).filter(isObj);
    if (output.length > 0) this.raw = { ...this.fromOutput(output), model: this.raw.model };
    this.raw.model = str(response.model) ?? this.raw.model;
    for (const url of arr(response.citations))
      if (str(url)) this.addSource(this.raw, { title: '', url: url as string });
  }

  private fromOutput(output: Obj[]): RawAnswer {
    const raw = responsesRaw();
    const summaries: string[] = [];
    const thoughts: string[] = [];
    for (const item of output) {
      if (item.type === 'reasoning') {
        for (const s of arr(item.summary))
          if (isObj(s) && str(s.text)) summaries.push(s.text as string);
        for (const c of arr(item.content))
          if (isObj(c) && str(c.text)) thoughts.push(c.text as string);
      } else if (item.type === 'message') {
        for (const part of arr(item.content)) {
          if (!isObj(part)) continue;
          if (part.type === 'refusal') raw.refusal += str(part.refusal) ?? '';
          if (part.type !== 'output_text') continue;
          raw.content += str(part.text) ?? '';
          for (const a of arr(part.annotations)) this.annotation(a, raw);
        }
      }
    }
    for (const item of output) if (item.type === 'web_search_call') this.searchCall(item, raw);
    raw.reasoningSummary = summaries.join('\n\n');
    raw.reasoningContent = thoughts.join('\n\n');
    return raw;
  }

  private annotation(a: unknown, raw = this.raw): void {
    if (!isObj(a) || (a.type !== 'url_citation' && a.type !== undefined)) return;
    const url = str(a.url);
    if (!url) return;
    addCitedUrl(raw, url, str(a.title));
    // Ark's annotations are rich enough to be the source list on their own.
    if (str(a.site_name) || str(a.logo_url))
      this.addSource(raw, {
        title: str(a.title) ?? '',
        url,
        site: str(a.site_name),
        icon: str(a.logo_url),
      });
    if (
      isObj(a.cover_image) &&
      str(a.cover_image.url) &&
      !raw.images.some((i) => i.sourceUrl === url)
    ) {
      raw.images.push({ url: a.cover_image.url as string, sourceUrl: url });
    }
  }

  private searchCall(item: Obj, raw = this.raw): void {
    const action = isObj(item.action) ? item.action : {};
    for (const s of arr(action.sources)) {
      if (isObj(s) && str(s.url))
        this.addSource(raw, { title: str(s.title) ?? '', url: s.url as string });
    }
  }

  private addSource(raw: RawAnswer, r: RawSearchResult): void {
    const id = urlIdentity(r.url);
    if (raw.searchResults.some((x) => urlIdentity(x.url) === id)) return;
    raw.searchResults.push({ ...r, index: raw.searchResults.length + 1 });
  }
}
