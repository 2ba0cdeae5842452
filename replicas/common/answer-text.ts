/**
 * The building blocks of a replica's fixed answers: which parts a mode asks
 * for, a prompt's topic without its `#replica:` directives, a tag that is
 * the same for the same (topic, mode), and text cut into the pieces a site
 * streams. Each site's answers.ts writes its own words with them.
 */
import { createHash } from 'node:crypto';
import type { Mode } from '../../services/shared/platforms.js';

export const thinks = (mode: Mode) => mode === 'reasoning' || mode === 'reasoning_search';
export const searches = (mode: Mode) => mode === 'search' || mode === 'reasoning_search';

/** The prompt's words: every `#replica:` directive dropped, so a variant answers the plain prompt. */
export const topicOf = (prompt: string) => prompt.replace(/\s*#replica:[a-z0-9_]+/g, '').trim();

/** Eight hex digits that name the answer to a (topic, mode): the same each time. */
export const answerTag = (topic: string, mode: Mode) =>
  createHash('sha256').update(`${topic}|${mode}`).digest('hex').slice(0, 8);

/** The text in pieces of `size` characters, as a site streams it. */
export function piecesOf(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}
