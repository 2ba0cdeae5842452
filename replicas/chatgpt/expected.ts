/**
 * What the ChatGPT web driver must report for the replica's answer to
 * (prompt, mode): the answer's text with its citations as `[n]`, every
 * search result a reference in the list's order, the cited subset, the
 * thoughts, the page's model label and the format that answered. The older
 * snapshots (`#replica:old_format`) carry no thoughts, so the reasoning
 * does not show as having run there.
 */
import type { WebAnswer } from '../../crawler/platforms/types.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { modeOf } from '../../crawler/platforms/common/ran-mode.js';
import { hostOf } from '../../crawler/platforms/common/raw-answer.js';
import { replicaAnswer, searches, thinks } from './answers.js';
import { citedFields, reasoningOf } from '../common/expected-answer.js';

/** The label the replica's model picker shows. */
export const MODEL_LABEL = 'ChatGPT 5';

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
    // The older list names no site: the host stands for it.
    site: olderFormat(prompt) ? hostOf(s.url) : s.attribution,
    icon: '',
  }));
  const thinking = olderFormat(prompt) ? '' : a.thinking.join('');
  return {
    ...citedFields(a.pieces, refs, (n) => n + 1),
    reasoningProcess: reasoningOf(thinking, '. ', '.'),
    recommendedQuestions: [],
    mediaContent: [],
    modelReported: MODEL_LABEL,
    effectiveMode: ranMode(prompt, mode),
    formatVersion: olderFormat(prompt) ? 'chatgpt-snapshot' : 'chatgpt-v1',
    answerSource: 'stream',
  };
}
