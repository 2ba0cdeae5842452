/**
 * What a platform gave, in one vendor-neutral shape, and its conversion into
 * the spec 2.3 answer fields. Every wire-format parser fills a RawAnswer;
 * `buildAnswer` is the one place that numbers references, picks the cited
 * subset and separates reasoning from the answer. Pure.
 */
import type { Answer, Media, Reference } from '../types.js';

export interface RawSearchResult {
  index?: number;
  title: string;
  url: string;
  site?: string;
  icon?: string;
}

export interface RawImage {
  url: string;
  title?: string;
  /** The page the image belongs to, when the platform says. */
  sourceUrl?: string;
}

export interface RawAnswer {
  content: string;
  reasoningContent: string;
  /** A platform-written summary of the reasoning (some platforms give only this). */
  reasoningSummary: string;
  refusal: string;
  searchResults: RawSearchResult[];
  /** URLs the platform marked as cited (annotations, citation blocks). */
  citedUrls: string[];
  /** Titles the citation marks carried, by URL (fills references listed without one). */
  citedTitles: Record<string, string>;
  /** Reference indices the platform marked as cited (grounding supports, flags). */
  citedIndices: number[];
  relatedQuestions: string[];
  images: RawImage[];
}

export function emptyRaw(): RawAnswer {
  return {
    content: '',
    reasoningContent: '',
    reasoningSummary: '',
    refusal: '',
    searchResults: [],
    citedUrls: [],
    citedTitles: {},
    citedIndices: [],
    relatedQuestions: [],
    images: [],
  };
}

/** Records one cited URL (and its title when the mark carried one). */
export function addCitedUrl(raw: RawAnswer, url: string, title?: string): void {
  if (!raw.citedUrls.includes(url)) raw.citedUrls.push(url);
  if (title && !raw.citedTitles[url]) raw.citedTitles[url] = title;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/**
 * The 1-based citation markers in `text`, in order of first appearance. Reads
 * the marker styles vendors write: `[1]` (Perplexity, DashScope, Hunyuan),
 * `[ref_1]` (Zhipu, DashScope's other format), `^[1]^` (Qianfan) and `[^1]`.
 */
export function citationMarkers(text: string): number[] {
  const seen: number[] = [];
  for (const m of text.matchAll(/\[(?:ref_|\^)?(\d{1,3})\]/g)) {
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
 * Moves `<think>…</think>` blocks out of an answer (Perplexity's reasoning
 * models, hosted R1-style models). Defensive about a missing tag: a lone
 * `</think>` ends the reasoning that opened the text, and a `<think>` never
 * closed makes the rest reasoning.
 */
export function splitThink(content: string): { answer: string; reasoning: string } {
  if (!/<\/?think>/.test(content)) return { answer: content, reasoning: '' };
  const thoughts: string[] = [];
  let answer = content.replace(/<think>([\s\S]*?)<\/think>/g, (_, inner: string) => {
    thoughts.push(inner);
    return '';
  });
  const close = answer.indexOf('</think>');
  if (close !== -1) {
    thoughts.unshift(answer.slice(0, close));
    answer = answer.slice(close + '</think>'.length);
  }
  const open = answer.indexOf('<think>');
  if (open !== -1) {
    thoughts.push(answer.slice(open + '<think>'.length));
    answer = answer.slice(0, open);
  }
  return {
    answer: answer.trim(),
    reasoning: thoughts
      .map((x) => x.trim())
      .filter(Boolean)
      .join('\n\n'),
  };
}

/**
 * Turns what a platform gave into an Answer. References are numbered as the
 * platform numbered them; the cited subset is every reference named by a
 * marker in the answer, an annotation URL or a cited-index flag, in reference
 * order (so citationList is always a subset of referenceList).
 */
export function buildAnswer(raw: RawAnswer): Answer {
  const referenceList: Reference[] = [];
  for (const r of raw.searchResults) {
    const index = r.index ?? referenceList.length + 1;
    if (referenceList.some((x) => x.index === index)) continue;
    referenceList.push({
      index,
      title: r.title || raw.citedTitles[r.url] || hostOf(r.url) || r.url,
      url: r.url,
      site: r.site || hostOf(r.url),
      icon: r.icon ?? '',
    });
  }
  // Annotation URLs the platform never listed become references too.
  for (const url of raw.citedUrls) {
    if (referenceList.some((r) => r.url === url)) continue;
    const index = Math.max(0, ...referenceList.map((r) => r.index)) + 1;
    const title = raw.citedTitles[url] || hostOf(url) || url;
    referenceList.push({ index, title, url, site: hostOf(url), icon: '' });
  }
  const { answer, reasoning: inline } = splitThink(raw.content);
  const cited = new Set<number>([...citationMarkers(answer), ...raw.citedIndices]);
  for (const url of raw.citedUrls) {
    const ref = referenceList.find((r) => r.url === url);
    if (ref) cited.add(ref.index);
  }
  const citationList = referenceList.filter((r) => cited.has(r.index)).map((r) => ({ ...r }));

  // A platform that gives only a summary (OpenAI, Gemini) has nothing fuller to show.
  const content = [raw.reasoningContent, inline].filter((x) => x.trim() !== '').join('\n\n');
  const summaryOnly = raw.reasoningSummary.trim();
  const reasoningProcess =
    content.trim() !== ''
      ? { summary: summaryOnly || summarize(content), content }
      : summaryOnly !== ''
        ? { summary: summaryOnly, content: summaryOnly }
        : null;

  const mediaContent: Media[] = raw.images.map((img) => {
    const m: Media = { type: 'image', url: img.url };
    if (img.title !== undefined) m.title = img.title;
    if (img.sourceUrl !== undefined) m.sourceUrl = img.sourceUrl;
    return m;
  });

  return {
    answerContent: answer,
    referenceList,
    citationList,
    reasoningProcess,
    recommendedQuestions: [...raw.relatedQuestions],
    mediaContent,
  };
}
