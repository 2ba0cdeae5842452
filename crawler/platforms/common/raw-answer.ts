/**
 * What a platform gave, in one vendor-neutral shape, and its conversion into
 * the spec 2.3 answer fields. Every wire-format parser fills a RawAnswer;
 * `buildAnswer` is the one place that numbers references, picks the cited
 * subset and separates reasoning from the answer. Pure.
 */
import type { Answer, Media, Reference } from '../../../services/shared/contracts/answer.js';
import { urlIdentity } from './url-identity.js';

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
  /** URLs the platform marked as cited (annotations, citation blocks), one per page. */
  citedUrls: string[];
  /** Titles the citation marks carried, by `urlIdentity` (fills references listed without one). */
  citedTitles: Record<string, string>;
  /** Reference indices the platform marked as cited (grounding supports, flags). */
  citedIndices: number[];
  /**
   * Whether `[n]` in the text names reference n. Not where the platform marks
   * its citations itself: xAI numbers its inline links by citation order, so
   * its `[[1]](url)` need not be the first source it lists.
   */
  markersCite: boolean;
  relatedQuestions: string[];
  images: RawImage[];
  /** The model the platform said answered (a response's `model`); '' when it said none. */
  model: string;
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
    markersCite: true,
    relatedQuestions: [],
    images: [],
    model: '',
  };
}

/** Records one cited URL, the first one given for its page (and the first title a mark carried). */
export function addCitedUrl(raw: RawAnswer, url: string, title?: string): void {
  const id = urlIdentity(url);
  if (!raw.citedUrls.some((u) => urlIdentity(u) === id)) raw.citedUrls.push(url);
  if (title && !raw.citedTitles[id]) raw.citedTitles[id] = title;
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

/** No title at all, or only the host or URL standing in for one. */
const isBareTitle = (title: string, url: string): boolean =>
  title === '' || title === url || title === hostOf(url);

/**
 * A reference's title. The listing's own title describes the listed page, so
 * it wins; a citation mark's title replaces only a missing one or a bare host
 * (OpenAI lists sources without titles and titles its annotations); the host
 * is the last resort.
 */
function titleOf(listed: string, marked: string | undefined, url: string): string {
  if (!isBareTitle(listed, url)) return listed;
  if (marked && !isBareTitle(marked, url)) return marked;
  return listed || hostOf(url) || url;
}

/**
 * Turns what a platform gave into an Answer. References are numbered as the
 * platform numbered them; the cited subset is every reference named by a
 * marker in the answer (where markers cite), an annotation URL or a cited-index flag, in reference
 * order (so citationList is always a subset of referenceList).
 *
 * One page is one reference: URLs that differ only by trackers, fragment or
 * parameter order (`urlIdentity`) are the first one listed, under the URL it
 * was listed with. A later duplicate the platform numbered itself is dropped,
 * and its markers cite the reference kept, so markers in the text still land.
 */
export function buildAnswer(raw: RawAnswer): Answer {
  const referenceList: Reference[] = [];
  const byPage = new Map<string, Reference>();
  const keptFor = new Map<number, number>();
  for (const r of raw.searchResults) {
    const index = r.index ?? referenceList.length + 1;
    if (referenceList.some((x) => x.index === index)) continue;
    const id = urlIdentity(r.url);
    const kept = byPage.get(id);
    if (kept) {
      if (r.index !== undefined) keptFor.set(r.index, kept.index);
      if (isBareTitle(kept.title, kept.url) && !isBareTitle(r.title, r.url)) kept.title = r.title;
      continue;
    }
    const ref: Reference = {
      index,
      title: titleOf(r.title, raw.citedTitles[id], r.url),
      url: r.url,
      site: r.site || hostOf(r.url),
      icon: r.icon ?? '',
    };
    referenceList.push(ref);
    byPage.set(id, ref);
  }
  // Annotation URLs the platform never listed become references too.
  for (const url of raw.citedUrls) {
    const id = urlIdentity(url);
    if (byPage.has(id)) continue;
    const index = Math.max(0, ...referenceList.map((r) => r.index)) + 1;
    const ref: Reference = {
      index,
      title: titleOf('', raw.citedTitles[id], url),
      url,
      site: hostOf(url),
      icon: '',
    };
    referenceList.push(ref);
    byPage.set(id, ref);
  }
  const { answer, reasoning: inline } = splitThink(raw.content);
  const cited = new Set<number>();
  const markers = raw.markersCite ? citationMarkers(answer) : [];
  for (const n of [...markers, ...raw.citedIndices]) cited.add(keptFor.get(n) ?? n);
  for (const url of raw.citedUrls) {
    const ref = byPage.get(urlIdentity(url));
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
    ...(raw.model !== '' && { modelReported: raw.model }),
  };
}
