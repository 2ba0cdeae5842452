/**
 * What each driver must extract from its stand-in's answer: the scenario seen
 * through what each vendor can give (its marker style, which source fields it
 * has, whether it gives a reasoning summary only, follow-ups, media).
 */
import { findPlatform, type Mode } from '../../services/shared/platforms.js';
import type { Answer, Reference } from '../../services/shared/contracts/answer.js';
import { summarize } from '../../crawler/platforms/common/raw-answer.js';
import { domainOf, redirectOf } from './gemini.js';
import {
  answerText,
  CITED,
  IMAGES,
  REASONING,
  RELATED,
  segments,
  servedModel,
  SOURCES,
  XAI_FOUND,
  xaiMarker,
} from './scenario.js';

const host = (url: string) => new URL(url).hostname.replace(/^www\./, '');

const MARKERS: Record<string, (n: number) => string> = {
  perplexity: (n) => `[${n}]`,
  qwen: (n) => `[${n}]`,
  yuanbao: (n) => `[${n}]`,
  zhipu: (n) => `[ref_${n}]`,
  wenxin: (n) => `^[${n}]^`,
  grok: xaiMarker,
};

/** Which reasoning a platform gives in a mode: the full text, or only a summary. */
function reasoningOf(platform: string, mode: Mode): Answer['reasoningProcess'] {
  if (mode !== 'reasoning' && mode !== 'reasoning_search') return null;
  const responses =
    (platform === 'chatgpt' || platform === 'doubao' || platform === 'grok') &&
    mode === 'reasoning_search';
  const summaryOnly =
    platform === 'gemini' || (platform === 'chatgpt' && mode === 'reasoning') || responses;
  return summaryOnly
    ? { summary: REASONING, content: REASONING }
    : { summary: summarize(REASONING), content: REASONING };
}

function referencesOf(platform: string): Reference[] {
  const all = (f: (s: (typeof SOURCES)[number], i: number) => Reference) => SOURCES.map(f);
  const cited = CITED.map((n) => SOURCES[n - 1]!);
  switch (platform) {
    case 'chatgpt':
      return all((s, i) => ({
        index: i + 1,
        title: CITED.includes(i + 1) ? s.title : host(s.url),
        url: s.url,
        site: host(s.url),
        icon: '',
      }));
    case 'claude':
    case 'yuanbao':
    case 'wenxin':
    case 'perplexity':
      return all((s, i) => ({
        index: i + 1,
        title: s.title,
        url: s.url,
        site: host(s.url),
        icon: '',
      }));
    case 'gemini':
      return all((s, i) => ({
        index: i + 1,
        title: domainOf(s.url),
        url: redirectOf(i),
        site: domainOf(s.url),
        icon: '',
      }));
    case 'qwen':
    case 'zhipu':
      return all((s, i) => ({ index: i + 1, ...s }));
    case 'doubao':
      return cited.map((s, i) => ({ index: i + 1, ...s }));
    case 'grok':
      return XAI_FOUND.map((n, i) => ({
        index: i + 1,
        title: host(SOURCES[n - 1]!.url),
        url: SOURCES[n - 1]!.url,
        site: host(SOURCES[n - 1]!.url),
        icon: '',
      }));
    case 'kimi':
      return all((s, i) => ({
        index: i + 1,
        title: s.title,
        url: s.url,
        site: host(s.url),
        icon: '',
      }));
    default:
      return []; // deepseek: no search
  }
}

/**
 * The model the stand-in says answered, for the platform's default model of
 * the mode: Gemini names its `modelVersion`; DashScope's native protocol
 * names none.
 */
function reportedModel(platform: string, mode: Mode): Pick<Answer, 'modelReported'> {
  if (platform === 'qwen') return {};
  if (platform === 'gemini') return { modelReported: 'gemini-2.5-flash' };
  return { modelReported: servedModel(findPlatform(platform)!.api!.models[mode]) };
}

export function expectedAnswer(platform: string, mode: Mode, prompt: string): Answer {
  const search = mode === 'search' || mode === 'reasoning_search';
  const referenceList = search ? referencesOf(platform) : [];
  // Kimi marks no citations and its text has no `[n]`.
  const citedIndices =
    platform === 'kimi'
      ? []
      : platform === 'doubao'
        ? [1, 2]
        : platform === 'grok'
          ? XAI_FOUND.flatMap((n, i) => (CITED.includes(n) ? [i + 1] : []))
          : CITED;
  const citationList = referenceList.filter((r) => citedIndices.includes(r.index));
  const media =
    search && platform === 'perplexity'
      ? IMAGES.map((i) => ({ type: 'image' as const, url: i.url, sourceUrl: i.origin }))
      : search && platform === 'doubao'
        ? CITED.map((n) => ({
            type: 'image' as const,
            url: `${SOURCES[n - 1]!.url}cover.jpg`,
            sourceUrl: SOURCES[n - 1]!.url,
          }))
        : [];
  return {
    answerContent: answerText(
      segments(prompt, search && referenceList.length > 0),
      search ? MARKERS[platform] : undefined,
    ),
    referenceList,
    citationList,
    reasoningProcess: reasoningOf(platform, mode),
    recommendedQuestions:
      search && (platform === 'perplexity' || platform === 'yuanbao') ? RELATED : [],
    mediaContent: media,
    ...reportedModel(platform, mode),
  };
}
