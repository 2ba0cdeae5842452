/**
 * The fields a driver must report that every replica derives the same way
 * from its fixed answer: the text with each citation mark as `[n]`, the
 * references and the cited subset, and the chain of thought with its first
 * sentence as the summary. Each site's expected.ts adds what is its own
 * (its references' fields, its model label, its formats).
 */
import type { WebAnswer } from '../../crawler/platforms/types.js';
import type { Reference } from '../../services/shared/contracts/answer.js';

/** A piece of answer text, or a citation mark naming a source by its number in the replica's answer. */
export type CitePiece = string | { cite: number };

/**
 * The answer text and its references: each mark `[n]`, n the cited
 * reference's index (`indexOf` the mark's number: the same by default, +1
 * where the site counts its sources from 0).
 */
export function citedFields(
  pieces: readonly CitePiece[],
  references: Reference[],
  indexOf: (n: number) => number = (n) => n,
): Pick<WebAnswer, 'answerContent' | 'referenceList' | 'citationList'> {
  const cited = pieces.flatMap((p) => (typeof p === 'string' ? [] : [indexOf(p.cite)]));
  return {
    answerContent: pieces.map((p) => (typeof p === 'string' ? p : `[${indexOf(p.cite)}]`)).join(''),
    referenceList: references,
    citationList: references.filter((r) => cited.includes(r.index)),
  };
}

/** A chain of thought as the driver reports it: its first sentence the summary; none without one. */
export function reasoningOf(
  thinking: string,
  sentenceEnd = '。',
  summaryEnd = sentenceEnd,
): WebAnswer['reasoningProcess'] {
  return thinking
    ? { summary: thinking.split(sentenceEnd)[0] + summaryEnd, content: thinking }
    : null;
}
