/**
 * What the ChatGLM web driver must report for the replica's answer to
 * (prompt, mode): the last snapshot's text with its citation marks as
 * `[n]`, every search result a reference in the list's order, the cited
 * subset, the chain of thought, and the page's model label. The older
 * format (`#replica:old_format`, glm-2024) carries no chain of thought, so
 * deep thinking does not show as having run there.
 */
import type { WebAnswer } from '../../crawler/platforms/types.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { modeOf } from '../../crawler/platforms/common/ran-mode.js';
import { replicaAnswer, searches, thinks } from './answers.js';
import { citedFields, reasoningOf } from '../common/expected-answer.js';

/** The label the replica's model picker shows. */
export const MODEL_LABEL = 'GLM-4.6';

const olderFormat = (prompt: string) => /#replica:old_format\b/.test(prompt);

/** The mode the replica's stream shows as having run. */
export function ranMode(prompt: string, mode: Mode): Mode {
  return modeOf(thinks(mode) && !olderFormat(prompt), searches(mode));
}

export function expectedWebAnswer(prompt: string, mode: Mode): WebAnswer {
  const a = replicaAnswer(prompt, mode);
  const refs: Reference[] = a.sources.map((s, i) => ({
    index: i + 1,
    title: s.title,
    url: s.url,
    site: s.site_name,
    icon: '',
  }));
  const thinking = olderFormat(prompt) ? '' : a.thinking.join('');
  return {
    ...citedFields(a.pieces, refs, (n) => n + 1),
    reasoningProcess: reasoningOf(thinking),
    recommendedQuestions: [],
    mediaContent: [],
    modelReported: MODEL_LABEL,
    effectiveMode: ranMode(prompt, mode),
    formatVersion: olderFormat(prompt) ? 'glm-2024' : 'glm-2025',
    answerSource: 'stream',
  };
}
