/**
 * A rendered answer's text cut where the task's brand keywords are mentioned,
 * pure. It runs the service's own matcher (services/shared/brand/matcher.ts)
 * the way the service reads an answer, so the dashboard marks what the service
 * counts: every alias of a group (`格罗贝克斯` for `Globex|格罗贝克斯`), folded
 * forms (`ＡＣＭＥ`), the same word boundaries (`Acme` in `Acme's` and
 * `Acme公司`, not in `Acmetronics`), and nothing inside a bare URL.
 */
import { findMentions } from '../../services/shared/brand/matcher.js';
import type { KeywordGroup } from '../../services/shared/contracts/brand.js';

export interface TextPiece {
  text: string;
  /** The group this piece mentions; absent for the text between mentions. */
  keyword?: string;
}

export function mentionPieces(text: string, groups: readonly KeywordGroup[]): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const m of findMentions(text, groups)) {
    if (m.start > at) pieces.push({ text: text.slice(at, m.start) });
    pieces.push({ text: text.slice(m.start, m.end), keyword: m.keyword });
    at = m.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}
