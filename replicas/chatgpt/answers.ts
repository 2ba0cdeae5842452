/**
 * What the ChatGPT replica answers, deterministic per (prompt, mode): the
 * thoughts when the reasoning is on; when the search is on, the search
 * results (each with the `ref_id` its citations name) and the answer's
 * citation marks. The topic drops every `#replica:` directive, so a
 * variant answers the plain prompt's words.
 */
import type { Mode } from '../../services/shared/platforms.js';
import { answerTag, piecesOf, searches, thinks, topicOf } from '../common/answer-text.js';

export { searches, thinks, topicOf };

export interface ReplicaSource {
  title: string;
  url: string;
  attribution: string;
  snippet: string;
}

/** A piece of answer text, or a citation of the source at that 0-based place. */
export type Piece = string | { cite: number };

export interface ReplicaAnswer {
  thinking: string[];
  sources: ReplicaSource[];
  pieces: Piece[];
}

const SITES = [
  ['https://en.wikipedia.org/wiki/', 'Wikipedia'],
  ['https://www.reuters.com/technology/', 'Reuters'],
  ['https://www.theverge.com/', 'The Verge'],
  ['https://www.nature.com/articles/', 'Nature'],
] as const;

/** Splits text into short pieces, as the site streams it. */
export const chunks = (text: string, size = 12): string[] => piecesOf(text, size);

export function replicaAnswer(prompt: string, mode: Mode): ReplicaAnswer {
  const topic = topicOf(prompt);
  const tag = answerTag(topic, mode);
  const search = searches(mode);
  const sources: ReplicaSource[] = search
    ? SITES.map(([base, site], i) => ({
        title: `${topic}: ${site} result ${i + 1}`,
        url: `${base}${tag}-${i + 1}`,
        attribution: site,
        snippet: `A summary of ${topic}, ${i + 1}.`,
      }))
    : [];
  const cite = (n: number): Piece[] => (search ? [{ cite: n }] : []);
  return {
    thinking: thinks(mode)
      ? chunks(`The user asks about "${topic}". List the main points, then answer.`, 16)
      : [],
    sources,
    pieces: [
      ...chunks(`## ${topic}: an overview\n\nThe ChatGPT replica's fixed answer (${tag}).`),
      ...cite(0),
      ...chunks(`\n\n- **First**: the main facts in ${mode} mode.`),
      ...cite(2),
      ...chunks(`\n- **Second**: how the views compare.\n\nFor reference only.`),
    ],
  };
}
