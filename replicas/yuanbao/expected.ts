/**
 * What the Yuanbao web driver must report for the replica's answer to
 * (prompt, mode, model): the text with `[citation:N]` as `[N]`, every
 * search doc a reference under its own `index` (WeChat articles under
 * their official account's name), the cited subset, the chain of thought
 * with its first sentence as summary, and the model switch's label (Hy3 /
 * DeepSeek) as the model the page names.
 */
import type { WebAnswer } from '../../crawler/platforms/types.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer, type Model } from './answers.js';
import { citedFields, reasoningOf } from '../common/expected-answer.js';

export function expectedWebAnswer(prompt: string, mode: Mode, model: Model = 'hunyuan'): WebAnswer {
  const a = replicaAnswer(prompt, mode, model);
  const refs: Reference[] = a.docs.map((d) => ({
    index: d.index,
    title: d.title,
    url: d.url,
    site: d.web_site_name,
    icon: '',
  }));
  const thinking = a.thinking.join('');
  return {
    ...citedFields(a.pieces, refs),
    reasoningProcess: reasoningOf(thinking),
    recommendedQuestions: [],
    mediaContent: [],
    modelReported: model === 'deepseek' ? 'DeepSeek' : 'Hy3',
    effectiveMode: mode,
    formatVersion: 'yuanbao-2026',
    answerSource: 'stream',
  };
}
