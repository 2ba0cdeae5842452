/**
 * What the Doubao web driver must report for the replica's answer to
 * (prompt, mode): every search card and video as a source (the site marks
 * none as cited, so all are), the reasoning as its own summary (or, in the
 * fields_elsewhere variant, the site's `text_block.summary`), the videos as
 * media, the follow-ups.
 */
import { hasReasoning, hasSearch } from '../../crawler/platforms/common/answer.js';
import type { Answer } from '../../services/shared/contracts/answer.js';
import type { Mode } from '../../services/shared/platforms.js';
import { replicaAnswer } from './answers.js';
import { STREAM_VARIANTS, summaryOf } from './frames.js';
import { streamVariantOf } from '../common/stream-variants.js';

export function expectedAnswer(prompt: string, mode: Mode): Answer {
  const a = replicaAnswer(prompt, { deepThink: hasReasoning(mode), webSearch: hasSearch(mode) });
  const refs = [
    ...a.cards.map((c) => ({
      index: c.index,
      title: c.title,
      url: c.url,
      site: c.sitename,
      icon: c.icon,
    })),
    ...a.videos.map((v) => ({
      index: v.index,
      title: v.title,
      url: v.url,
      site: v.platform,
      icon: '',
    })),
  ];
  const reasoning = a.reasoning.join('').trim();
  const elsewhere = streamVariantOf(prompt, STREAM_VARIANTS) === 'fields_elsewhere';
  const summary = elsewhere && reasoning ? summaryOf(a) : '';
  return {
    answerContent: a.text.join('').trim(),
    referenceList: refs,
    citationList: refs,
    reasoningProcess: reasoning ? { summary: summary || reasoning, content: reasoning } : null,
    recommendedQuestions: a.followUps,
    mediaContent: a.videos.map((v) => ({
      type: 'video' as const,
      url: v.url,
      title: v.title,
      thumbnail: v.cover,
    })),
  };
}
