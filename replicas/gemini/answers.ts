/**
 * What the Gemini replica answers, deterministic per (prompt, mode): the
 * thoughts when Thinking is the model; when Google Search is on, the
 * sources and the answer's citation marks (each mark names one or more
 * sources by their citation number, counted from 1). The topic drops every
 * `#replica:` directive, so a variant answers the plain prompt's words.
 */
import type { Mode } from '../../services/shared/platforms.js';
import { answerTag, piecesOf, searches, thinks, topicOf } from '../common/answer-text.js';

export { searches, thinks, topicOf };

export interface ReplicaSource {
  title: string;
  url: string;
  favicon: string;
}

/** A piece of answer text, or a citation mark naming sources by number (1-based). */
export type Piece = string | { cite: number[] };

export interface ReplicaAnswer {
  thinking: string[];
  sources: ReplicaSource[];
  pieces: Piece[];
}

const SITES = [
  ['https://en.wikipedia.org/wiki/', 'Wikipedia'],
  ['https://www.reuters.com/technology/', 'Reuters'],
  ['https://www.nature.com/articles/', 'Nature'],
] as const;

/** Splits text into short pieces, as the site grows its snapshots. */
export const chunks = (text: string, size = 8): string[] => piecesOf(text, size);

export function replicaAnswer(prompt: string, mode: Mode): ReplicaAnswer {
  const topic = topicOf(prompt);
  const tag = answerTag(topic, mode);
  const search = searches(mode);
  const sources: ReplicaSource[] = search
    ? SITES.map(([base, name], i) => ({
        title: `${topic} — ${name} result ${i + 1}`,
        url: `${base}${tag}-${i + 1}`,
        favicon: `https://www.gstatic.com/favicon/${name.toLowerCase()}.png`,
      }))
    : [];
  const cite = (...n: number[]): Piece[] => (search ? [{ cite: n }] : []);
  return {
    thinking: thinks(mode)
      ? chunks(`**Planning** the answer about "${topic}": list the facts, then compare them.`, 16)
      : [],
    sources,
    pieces: [
      ...chunks(`## ${topic}\n\nThe Gemini replica's fixed answer (${tag}).`),
      ...cite(1),
      ...chunks(`\n\n- **First**: the main facts in ${mode} mode.`),
      ...cite(2, 3),
      ...chunks(`\n- **Second**: how the views compare.\n\nFor reference only.`),
    ],
  };
}
