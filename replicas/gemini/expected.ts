/**
 * What the Gemini web driver must report for the replica's answer to
 * (prompt, mode): the last snapshot's text with its `[cite: N]` marks as
 * `[N]`, the sources by citation number (all of them cited), the thoughts,
 * and the picker's label (Fast / Thinking). The Bard-era layout
 * (`#replica:old_format`) carries no thoughts and no marks, so thinking does
 * not show as having run there and no source is cited.
 */
import type { WebAnswer } from '../../crawler/platforms/types.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { modeOf } from '../../crawler/platforms/common/ran-mode.js';
import { hostOf } from '../../crawler/platforms/common/raw-answer.js';
import { replicaAnswer, searches, thinks } from './answers.js';
import { modelLabel } from './models.js';

const olderFormat = (prompt: string) => /#replica:old_format\b/.test(prompt);

/** The mode the replica's stream shows as having run. */
export function ranMode(prompt: string, mode: Mode): Mode {
  return modeOf(thinks(mode) && !olderFormat(prompt), searches(mode));
}

export function expectedWebAnswer(prompt: string, mode: Mode): WebAnswer {
  const a = replicaAnswer(prompt, mode);
  const older = olderFormat(prompt);
  const refs: Reference[] = a.sources.map((s, i) => ({
    index: i + 1,
    title: s.title,
    url: s.url,
    site: hostOf(s.url),
    icon: s.favicon,
  }));
  const text = a.pieces
    .map((p) => (typeof p === 'string' ? p : older ? '' : p.cite.map((n) => `[${n}]`).join('')))
    .join('');
  const thinking = older ? '' : a.thinking.join('');
  return {
    answerContent: text,
    referenceList: refs,
    citationList: older ? [] : refs,
    reasoningProcess: thinking ? { summary: thinking.split('\n')[0]!, content: thinking } : null,
    recommendedQuestions: [],
    mediaContent: [],
    modelReported: modelLabel(thinks(mode)),
    effectiveMode: ranMode(prompt, mode),
    formatVersion: older ? 'bard-2024' : 'gemini-2026',
    answerSource: 'stream',
  };
}
