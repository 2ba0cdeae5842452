/**
 * What the DeepSeek web driver must report for the replica's answer to
 * (prompt, mode): the stream's fields as a WebAnswer, sources numbered from 1
 * in the site's order, the cited subset, the reasoning with its first
 * sentence as summary.
 */
import type { WebAnswer } from '../../crawler/platforms/types.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer } from './answers.js';
import { STREAM_VARIANTS, withoutThinking } from './frames.js';
import { streamVariantOf } from '../common/stream-variants.js';

export function expectedWebAnswer(
  prompt: string,
  mode: Mode,
  siteUrl: string,
  formatVersion = 'deepseek-2026',
): WebAnswer {
  // The silent_fallback variant runs without deep thinking: the answer and mode of what ran.
  const ran =
    streamVariantOf(prompt, STREAM_VARIANTS) === 'silent_fallback' ? withoutThinking(mode) : mode;
  const a = replicaAnswer(prompt, ran, siteUrl);
  const refs: Reference[] = a.results.map((r, i) => ({
    index: i + 1,
    title: r.title,
    url: r.url,
    site: r.site_name,
    icon: r.site_icon,
  }));
  const cited = a.pieces.flatMap((p) => (typeof p === 'string' ? [] : [p.cite + 1]));
  const thinking = a.thinking.join('');
  return {
    answerContent: a.pieces.map((p) => (typeof p === 'string' ? p : `[${p.cite + 1}]`)).join(''),
    referenceList: refs,
    citationList: refs.filter((r) => cited.includes(r.index)),
    reasoningProcess: thinking
      ? { summary: thinking.split('。')[0] + '。', content: thinking }
      : null,
    recommendedQuestions: [],
    mediaContent: [],
    effectiveMode: ran,
    formatVersion,
    // Read from the page when the stream ended without its marker, else the stream (which the page agrees with).
    answerSource: formatVersion === 'deepseek-dom' ? 'dom' : 'stream',
  };
}
