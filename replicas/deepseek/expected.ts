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
import { citedFields, reasoningOf } from '../common/expected-answer.js';

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
  const thinking = a.thinking.join('');
  return {
    ...citedFields(a.pieces, refs, (n) => n + 1),
    reasoningProcess: reasoningOf(thinking),
    recommendedQuestions: [],
    mediaContent: [],
    effectiveMode: ran,
    formatVersion,
    // Read from the page when the stream ended without its marker, else the stream (which the page agrees with).
    answerSource: formatVersion === 'deepseek-dom' ? 'dom' : 'stream',
  };
}
