/**
 * Pure accumulation of OpenAI-style Chat Completions output into a RawAnswer:
 * streamed `chat.completion.chunk` objects (or one non-streaming completion)
 * in. The vendors that speak this format add their sources and extras at the
 * top level of a chunk, each in its own field; all are understood here so the
 * per-vendor drivers stay data:
 *
 * - `delta.reasoning_content` (DeepSeek, Kimi, Qwen, Ark, Zhipu, Grok mini,
 *   ERNIE X1), `delta.refusal`, `delta.annotations` / `message.annotations`
 *   (`url_citation`, OpenAI search models), `delta.tool_calls` (Kimi's
 *   `$web_search` round trip);
 * - `search_results` (Perplexity, Qianfan), `citations` (URL list: Perplexity,
 *   legacy xAI), `search_info.search_results` (Hunyuan), `references` (Ark
 *   bots, with `cover_image`), `web_search` (Zhipu: `link`, `media`, `refer`);
 * - `related_questions` / `recommended_questions`, `images`;
 * - a top-level `error` object (recorded; the driver classifies it);
 * - `model`, on every chunk: the model that answered (recorded as reported).
 */
import {
  addCitedUrl,
  emptyRaw,
  type RawAnswer,
  type RawImage,
  type RawSearchResult,
} from './raw-answer.js';

export interface StreamError {
  message: string;
  code?: string;
  type?: string;
}

export interface ToolCall {
  id: string;
  type: string;
  name: string;
  arguments: string;
}

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const codeOf = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

/** One source item in any of the vendors' shapes (`url`/`link`, `refer: "ref_2"`, …). */
export function searchResultOf(v: unknown, position: number): RawSearchResult | undefined {
  if (typeof v === 'string') return { index: position + 1, title: '', url: v };
  if (!isObj(v)) return undefined;
  const url = str(v.url) ?? str(v.link);
  if (!url) return undefined;
  const refer = /^ref_(\d+)$/.exec(str(v.refer) ?? '')?.[1];
  const index =
    typeof v.index === 'number' && Number.isInteger(v.index)
      ? v.index
      : refer
        ? Number(refer)
        : position + 1;
  return {
    index,
    title: str(v.title) ?? '',
    url,
    site: str(v.site_name) ?? str(v.site) ?? str(v.media),
    icon: str(v.icon) ?? str(v.logo_url) ?? str(v.favicon),
  };
}

function imageOf(v: unknown): RawImage | undefined {
  if (typeof v === 'string') return { url: v };
  if (!isObj(v)) return undefined;
  const url = str(v.image_url) ?? str(v.url);
  if (!url) return undefined;
  const img: RawImage = { url };
  const title = str(v.title);
  if (title !== undefined) img.title = title;
  const source = str(v.origin_url) ?? str(v.source_url);
  if (source !== undefined) img.sourceUrl = source;
  return img;
}

/** Accumulates the chunks of one streamed completion. */
export class OpenAIStreamAccumulator {
  readonly raw: RawAnswer = emptyRaw();
  finishReason: string | null = null;
  error: StreamError | undefined;
  readonly toolCalls: ToolCall[] = [];
  chunks = 0;

  /** Feeds one parsed chunk (the JSON of one `data:` event). */
  push(chunk: unknown): void {
    if (!isObj(chunk)) return;
    this.chunks++;
    // Every chunk names the model; the first that does is kept.
    this.raw.model ||= str(chunk.model) ?? '';
    if (isObj(chunk.error)) {
      this.error = {
        message: str(chunk.error.message) ?? 'the platform reported an error',
        code: codeOf(chunk.error.code),
        type: str(chunk.error.type),
      };
    }
    for (const choice of arr(chunk.choices)) {
      if (!isObj(choice)) continue;
      if (typeof choice.index === 'number' && choice.index !== 0) continue;
      const part = isObj(choice.delta)
        ? choice.delta
        : isObj(choice.message)
          ? choice.message
          : undefined;
      if (part) this.pushMessage(part);
      const finish = str(choice.finish_reason);
      if (finish) this.finishReason = finish;
    }
    this.pushExtras(chunk);
  }

  private pushMessage(m: Obj): void {
    const raw = this.raw;
    raw.content += str(m.content) ?? '';
    raw.reasoningContent += str(m.reasoning_content) ?? str(m.reasoning) ?? '';
    raw.refusal += str(m.refusal) ?? '';
    for (const a of arr(m.annotations)) {
      if (!isObj(a)) continue;
      const c = isObj(a.url_citation) ? a.url_citation : a;
      const url = str(c.url);
      if (url) addCitedUrl(raw, url, str(c.title));
    }
    arr(m.tool_calls).forEach((t, position) => {
      if (!isObj(t)) return;
      // Streamed tool calls arrive in pieces keyed by `index`; whole ones by position.
      const i = typeof t.index === 'number' ? t.index : position;
      const call = (this.toolCalls[i] ??= { id: '', type: '', name: '', arguments: '' });
      const fn = isObj(t.function) ? t.function : {};
      call.id ||= str(t.id) ?? '';
      call.type ||= str(t.type) ?? '';
      call.name ||= str(fn.name) ?? '';
      call.arguments += str(fn.arguments) ?? '';
    });
  }

  private pushExtras(chunk: Obj): void {
    const raw = this.raw;
    const results = [
      chunk.search_results,
      isObj(chunk.search_info) ? chunk.search_info.search_results : undefined,
      chunk.references,
      chunk.web_search,
      chunk.citations,
    ].find((r) => Array.isArray(r) && r.length > 0) as unknown[] | undefined;
    if (results) {
      raw.searchResults = results
        .map((r, i) => searchResultOf(r, i))
        .filter((r): r is RawSearchResult => r !== undefined);
    }
    if (Array.isArray(chunk.references)) {
      const covers = chunk.references.flatMap((r) => {
        if (!isObj(r) || !isObj(r.cover_image)) return [];
        const img = imageOf(r.cover_image);
        const source = str(r.url);
        return img ? [source ? { ...img, sourceUrl: source } : img] : [];
      });
      if (covers.length > 0) raw.images = covers;
    }
    const related = chunk.related_questions ?? chunk.recommended_questions;
    if (Array.isArray(related)) {
      raw.relatedQuestions = related.filter((q): q is string => typeof q === 'string');
    }
    if (Array.isArray(chunk.images)) {
      raw.images = chunk.images.map(imageOf).filter((i): i is RawImage => i !== undefined);
    }
    const summary = str(chunk.reasoning_summary);
    if (summary !== undefined) raw.reasoningSummary = summary;
  }
}

/**
 * The sources a built-in search tool call carries (Kimi's `$web_search`): its
 * `arguments` are a JSON object whose `search_results` list what the search
 * found (`title`, `url`, `content`), the same string the client echoes back as
 * the tool's result. Arguments that are not such JSON carry none.
 */
export function toolCallSources(calls: readonly ToolCall[]): unknown[] {
  return calls.flatMap((c) => {
    try {
      const args = JSON.parse(c.arguments) as unknown;
      return isObj(args) ? arr(args.search_results) : [];
    } catch {
      return [];
    }
  });
}

/** Accumulates a non-streaming completion (`choices[0].message`). */
export function accumulateCompletion(body: unknown): OpenAIStreamAccumulator {
  const acc = new OpenAIStreamAccumulator();
  acc.push(body);
  return acc;
}
