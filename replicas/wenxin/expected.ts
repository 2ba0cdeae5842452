/**
 * What the Yiyan web driver must report for the replica's answer to
 * (prompt, mode, model): the text with `^[N]^` as `[N]`, every citation a
 * reference under its own `index` (with its site), the cited subset, the
 * thought with its first sentence as summary, and the model picker's label
 * (文心4.5 Turbo, or 文心X1 Turbo while thinking) as the model the page names.
 */
import type { WebAnswer } from '../../crawler/platforms/types.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { MODEL_LABELS, replicaAnswer, thinks, type Model } from './answers.js';
import { citedFields, reasoningOf } from '../common/expected-answer.js';

/** The model the page runs for a mode, its picker left at the site's default otherwise. */
export const modelFor = (mode: Mode, picked: Model = 'EB45T'): Model =>
  thinks(mode) ? 'X1T' : picked;

export function expectedWebAnswer(prompt: string, mode: Mode, picked: Model = 'EB45T'): WebAnswer {
  const model = modelFor(mode, picked);
  const a = replicaAnswer(prompt, mode, model);
  const refs: Reference[] = a.citations.map((c) => ({
    index: Number(c.index),
    title: c.title,
    url: c.url,
    site: c.site,
    icon: '',
  }));
  const thinking = a.thinking.join('');
  return {
    ...citedFields(a.pieces, refs),
    reasoningProcess: reasoningOf(thinking),
    recommendedQuestions: [],
    mediaContent: [],
    modelReported: MODEL_LABELS[model],
    effectiveMode: mode,
    formatVersion: 'yiyan-2026',
    answerSource: 'stream',
  };
}
