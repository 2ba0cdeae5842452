/**
 * What the Perplexity web driver must report for the replica's answer to
 * (prompt, mode): the patched markdown's text, every web result a reference
 * in the list's order, the cited subset, the plan's goal steps as the
 * reasoning (its first line the summary), the follow-ups, and the model
 * picker's label.
 */
import type { WebAnswer } from '../../crawler/platforms/types.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer, thinks } from './answers.js';
import { citedFields } from '../common/expected-answer.js';

/** The model picker's labels: the site's default, and the thinking model the driver picks. */
export const MODEL_LABELS = { off: 'Best', on: 'Claude Sonnet 4.5 Thinking' } as const;
/** The model ids the page sends for them (`model_preference`). */
export const MODEL_IDS = { off: 'pplx_pro', on: 'claude45sonnetthinking' } as const;

export const modelLabelOf = (mode: Mode) => MODEL_LABELS[thinks(mode) ? 'on' : 'off'];

export function expectedWebAnswer(prompt: string, mode: Mode): WebAnswer {
  const a = replicaAnswer(prompt, mode);
  const refs: Reference[] = a.results.map((r, i) => ({
    index: i + 1,
    title: r.name,
    url: r.url,
    site: r.meta_data.domain_name,
    icon: '',
  }));
  const reasoning = a.goals.join('\n');
  return {
    ...citedFields(a.pieces, refs),
    reasoningProcess: reasoning ? { summary: a.goals[0]!, content: reasoning } : null,
    recommendedQuestions: a.related,
    mediaContent: [],
    modelReported: modelLabelOf(mode),
    effectiveMode: mode,
    formatVersion: /#replica:old_format\b/.test(prompt) ? 'pplx-blocks-2024' : 'pplx-diff-2025',
    answerSource: 'stream',
  };
}
