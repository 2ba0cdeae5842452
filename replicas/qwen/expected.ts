/**
 * What the Qwen web driver must report for the replica's answer to (prompt,
 * mode): the text with `[[N]]` as `[N]`, every source a reference under its
 * place in the list (its hostname as the site; the international site's
 * hostlogo as the icon), the cited subset, the reasoning with its first
 * sentence as summary, the model picker's label as the model the page names,
 * and the format that answered.
 */
import type { WebAnswer } from '../../crawler/platforms/types.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer } from './answers.js';
import { citedFields, reasoningOf } from '../common/expected-answer.js';

/** The model the replica's picker shows. */
export const MODEL_LABEL = 'Qwen3-Max';

export type Format = 'qwen-2026' | 'qwen-2025' | 'tongyi-legacy';

export function expectedWebAnswer(
  prompt: string,
  mode: Mode,
  formatVersion: Format = 'qwen-2026',
): WebAnswer {
  const a = replicaAnswer(prompt, mode);
  const refs: Reference[] = a.sources.map((s, i) => ({
    index: i + 1,
    title: s.title,
    url: s.url,
    site: s.hostname,
    icon: formatVersion === 'tongyi-legacy' ? '' : s.hostlogo,
  }));
  const thinking = a.thinking.join('');
  return {
    ...citedFields(a.pieces, refs),
    reasoningProcess: reasoningOf(thinking),
    recommendedQuestions: [],
    mediaContent: [],
    modelReported: MODEL_LABEL,
    effectiveMode: mode,
    formatVersion,
    answerSource: 'stream',
  };
}
