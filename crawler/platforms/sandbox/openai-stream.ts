/**
 * Pure accumulation of OpenAI-style Chat Completions output into an Answer:
 * streamed `chat.completion.chunk` objects (or one non-streaming completion)
 * in, the spec 2.3 answer fields out.
 *
 * Understood beyond the OpenAI core: `delta.reasoning_content` (DeepSeek & co.),
 * `delta.refusal`, `delta.annotations` / `message.annotations` (`url_citation`),
 * and top-level `search_results` (Perplexity / Qianfan style), `citations`
 * (a list of URLs), `related_questions`, `images` and `reasoning_summary`,
 * wherever in the stream they come. A top-level `error` object is recorded.
 */
import type { Answer, Media, Reference } from '../types.js';

export interface RawSearchResult {
  index?: number;
  title: string;
  url: string;
  site?: string;
  icon?: string;
}

/** What a platform gave, before it is turned into an Answer. */
export interface RawAnswer {
  content: string;
  reasoningContent: string;
  reasoningSummary: string;
  refusal: string;
  searchResults: RawSearchResult[];
  /** URLs the platform marked as cited (annotations). */
  citedUrls: string[];
  /** Reference indices the platform marked as cited (e.g. a `data-cited` flag). */
  citedIndices: number[];
  relatedQuestions: string[];
  images: { url: string; title?: string }[];
}

export function emptyRaw(): RawAnswer {
  return {
    content: '',
    reasoningContent: '',
    reasoningSummary: '',
    refusal: '',
    searchResults: [],
    citedUrls: [],
    citedIndices: [],
    relatedQuestions: [],
    images: [],
  };
}

export interface StreamError {
  message: string;
  code?: string;
  type?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

function searchResultOf(v: unknown, position: number): RawSearchResult | undefined {
  if (typeof v === 'string') return { index: position + 1, title: '', url: v };
  if (!isObj(v)) return undefined;
  const url = str(v.url) ?? str(v.link);
  if (!url) return undefined;
  const index = typeof v.index === 'number' && Number.isInteger(v.index) ? v.index : position + 1;
  return {
    index,
    title: str(v.title) ?? '',
    url,
    site: str(v.site_name) ?? str(v.site) ?? str(v.media),
    icon: str(v.icon) ?? str(v.logo_url) ?? str(v.favicon),
  };
}

/** Accumulates the chunks of one streamed completion. */
export class OpenAIStreamAccumulator {
  readonly raw: RawAnswer = emptyRaw();
  finishReason: string | null = null;
  error: StreamError | undefined;
  chunks = 0;

  /** Feeds one parsed chunk (the JSON of one `data:` event). */
  push(chunk: unknown): void {
    if (!isObj(chunk)) return;
    this.chunks++;
    if (isObj(chunk.error)) {
      this.error = {
        message: str(chunk.error.message) ?? 'the platform reported an error',
        code:
          str(chunk.error.code) ??
          (typeof chunk.error.code === 'number' ? String(chunk.error.code) : undefined),
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
      if (url && !raw.citedUrls.includes(url)) raw.citedUrls.push(url);
    }
  }

  private pushExtras(chunk: Obj): void {
    const raw = this.raw;
    const results = Array.isArray(chunk.search_results) ? chunk.search_results : chunk.citations;
    if (Array.isArray(results) && results.length > 0) {
      raw.searchResults = results
        .map((r, i) => searchResultOf(r, i))
        .filter((r): r is RawSearchResult => r !== undefined);
    }
    const related = chunk.related_questions ?? chunk.recommended_questions;
    if (Array.isArray(related)) {
      raw.relatedQuestions = related.filter((q): q is string => typeof q === 'string');
    }
    if (Array.isArray(chunk.images)) {
      raw.images = chunk.images.flatMap((img) => {
        if (typeof img === 'string') return [{ url: img }];
        if (!isObj(img)) return [];
        const url = str(img.url) ?? str(img.image_url);
        if (!url) return [];
        const title = str(img.title);
        return [title === undefined ? { url } : { url, title }];
      });
    }
    const summary = str(chunk.reasoning_summary);
    if (summary !== undefined) raw.reasoningSummary = summary;
  }
}

/** Accumulates a non-streaming completion (`choices[0].message`). */
export function accumulateCompletion(body: unknown): OpenAIStreamAccumulator {
  const acc = new OpenAIStreamAccumulator();
  acc.push(body);
  return acc;
}

/** The 1-based `[n]` citation markers in `text`, in order of first appearance. */
export function citationMarkers(text: string): number[] {
  const seen: number[] = [];
  for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(m[1]);
    if (n > 0 && !seen.includes(n)) seen.push(n);
  }
  return seen;
}

/** A one-sentence summary of a reasoning text, for platforms that give none. */
export function summarize(content: string): string {
  const firstLine = content.trim().split('\n')[0] ?? '';
  const sentence = /^(.+?(?:[.!?](?=\s|$)|[。！？]))/u.exec(firstLine)?.[1] ?? firstLine;
  const chars = Array.from(sentence);
  return chars.length > 200 ? `${chars.slice(0, 199).join('')}…` : sentence;
}

/**
 * Turns what a platform gave into an Answer. References are numbered as the
 * platform numbered them; the cited subset is every reference named by an
 * `[n]` marker in the answer, an annotation URL or a cited-index flag, in
 * reference order (so citationList is always a subset of referenceList).
 */
export function buildAnswer(raw: RawAnswer): Answer {
  const referenceList: Reference[] = [];
  for (const r of raw.searchResults) {
    const index = r.index ?? referenceList.length + 1;
    if (referenceList.some((x) => x.index === index)) continue;
    referenceList.push({
      index,
      title: r.title || hostOf(r.url) || r.url,
      url: r.url,
      site: r.site || hostOf(r.url),
      icon: r.icon ?? '',
    });
  }
  // Annotation URLs the platform never listed become references too.
  for (const url of raw.citedUrls) {
    if (referenceList.some((r) => r.url === url)) continue;
    const index = Math.max(0, ...referenceList.map((r) => r.index)) + 1;
    referenceList.push({ index, title: hostOf(url) || url, url, site: hostOf(url), icon: '' });
  }
  const cited = new Set<number>([...citationMarkers(raw.content), ...raw.citedIndices]);
  for (const url of raw.citedUrls) {
    const ref = referenceList.find((r) => r.url === url);
    if (ref) cited.add(ref.index);
  }
  const citationList = referenceList.filter((r) => cited.has(r.index)).map((r) => ({ ...r }));

  const reasoning = raw.reasoningContent;
  const reasoningProcess =
    reasoning.trim() !== ''
      ? { summary: raw.reasoningSummary || summarize(reasoning), content: reasoning }
      : null;

  const mediaContent: Media[] = raw.images.map((img) =>
    img.title === undefined
      ? { type: 'image', url: img.url }
      : { type: 'image', url: img.url, title: img.title },
  );

  return {
    answerContent: raw.content,
    referenceList,
    citationList,
    reasoningProcess,
    recommendedQuestions: [...raw.relatedQuestions],
    mediaContent,
  };
}
