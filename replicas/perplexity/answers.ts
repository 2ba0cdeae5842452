/**
 * What the Perplexity replica answers, deterministic per (prompt, mode): the
 * plan's goal steps when a thinking model runs; when the Web source is on,
 * the web results and the answer's `[n]` citations of them; the follow-up
 * questions the site suggests. The topic drops every `#replica:` directive,
 * so a variant answers the plain prompt's words.
 */
import { createHash } from 'node:crypto';
import type { Mode } from '../../services/shared/platforms.js';

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

export const thinks = (mode: Mode) => mode === 'reasoning' || mode === 'reasoning_search';
export const searches = (mode: Mode) => mode === 'search' || mode === 'reasoning_search';
export const topicOf = (prompt: string) => prompt.replace(/\s*#replica:[a-z0-9_]+/g, '').trim();

/** Splits text into short pieces, as the site streams its chunks. */
export function chunks(text: string, size = 12): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

export function replicaAnswer(prompt: string, mode: Mode): ReplicaAnswer {
  const topic = topicOf(prompt);
  const tag = createHash('sha256').update(`${topic}|${mode}`).digest('hex').slice(0, 8);
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
