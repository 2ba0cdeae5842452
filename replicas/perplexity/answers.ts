/**
 * What the Perplexity replica answers, deterministic per (prompt, mode): the
 * plan's goal steps when a thinking model runs; when the Web source is on,
 * the web results and the answer's `[n]` citations of them; the follow-up
 * questions the site suggests. The topic drops every `#replica:` directive,
 * so a variant answers the plain prompt's words.
 */
import type { Mode } from '../../services/shared/platforms.js';
import { answerTag, piecesOf, searches, thinks, topicOf } from '../common/answer-text.js';

export { searches, thinks, topicOf };

export interface ReplicaResult {
  name: string;
  url: string;
  snippet: string;
  meta_data: { client: string; domain_name: string };
}

/** A piece of answer text, or a citation of the result at that 1-based place. */
export type Piece = string | { cite: number };

export interface ReplicaAnswer {
  goals: string[];
  results: ReplicaResult[];
  pieces: Piece[];
  related: string[];
}

const SITES = [
  'https://en.wikipedia.org/wiki/',
  'https://www.reuters.com/technology/',
  'https://www.nature.com/articles/',
  'https://www.theverge.com/',
  'https://www.zhihu.com/question/',
] as const;

/** Splits text into short pieces, as the site streams its chunks. */
export const chunks = (text: string, size = 12): string[] => piecesOf(text, size);

export function replicaAnswer(prompt: string, mode: Mode): ReplicaAnswer {
  const topic = topicOf(prompt);
  const tag = answerTag(topic, mode);
  const search = searches(mode);
  const results: ReplicaResult[] = search
    ? SITES.map((base, i) => ({
        name: `${topic}: result ${i + 1}`,
        url: `${base}${tag}-${i + 1}`,
        snippet: `What result ${i + 1} says about ${topic}.`,
        meta_data: { client: 'web', domain_name: new URL(base).hostname },
      }))
    : [];
  const cite = (n: number): Piece[] => (search ? [{ cite: n }] : []);
  return {
    goals: thinks(mode)
      ? [
          `Understanding the question about ${topic}`,
          'Weighing what is known',
          'Writing the answer',
        ]
      : [],
    results,
    pieces: [
      ...chunks(`## About ${topic}\n\nThe Perplexity replica's deterministic answer (${tag}).`),
      ...cite(1),
      ...chunks(`\n\n- **First**: the main facts in ${mode} mode.`),
      ...cite(3),
      ...chunks(`\n- **Second**: how the sources compare.\n\nFor reference only.`),
    ],
    related: [`What is new about ${topic}?`, `Who leads in ${topic}?`],
  };
}
