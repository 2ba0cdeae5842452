/**
 * Finding the keyword groups' aliases in a text.
 *
 * Both sides are folded (fold.ts: NFKC, lower case), so `ＡＣＭＥ` matches
 * `Acme`. An alias end that is a word character (a letter, digit or mark of a
 * script written with spaces between words, or `_`) must sit on a word
 * boundary: `Acme` is not in `Acmetronics` or `3Acme`, but is in `Acme's`,
 * `Acme。` and `Acme公司`. Ends in Han, kana, Hangul, Thai, Lao, Khmer or
 * Myanmar (scripts written without spaces) match anywhere, so `阿克米` is
 * found in `阿克米公司`; a mixed alias (`阿克米Cloud`) checks only its Latin end.
 * A match covers whole folded chunks: `株` is not found inside `㈱`.
 *
 * At one position the longest alias wins (the earlier group between equal
 * ones); matches never overlap; the scan runs left to right.
 */
import type { KeywordGroup } from '../contracts/brand.js';
import { fold, FoldBuilder, type Folded } from './fold.js';
import { markdownText } from './markdown.js';

export interface MentionRange {
  keyword: string;
  /** Offsets in the original `text`: `text.slice(start, end)` is the mention. */
  start: number;
  end: number;
}

interface Candidate {
  folded: string;
  group: number;
  checkStart: boolean;
  checkEnd: boolean;
}

/** The groups' aliases, ready to match. */
export interface CompiledGroups {
  keywords: string[];
  /** Candidates by their first folded unit, longest first. */
  byFirst: Map<number, Candidate[]>;
  /** 1 for the units that start some alias: a quick test before the map. */
  firstUnits: Uint8Array;
  /** Every folded alias, with the groups it names (for host labels). */
  aliasGroups: Map<string, number[]>;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;
const UNSPACED_SCRIPT =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;

function isWordCodePoint(cp: number): boolean {
  if (cp < 0x80) {
    return (cp >= 48 && cp <= 57) || (cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90) || cp === 95;
  }
  const ch = String.fromCodePoint(cp);
  return LETTER_OR_DIGIT.test(ch) && !UNSPACED_SCRIPT.test(ch);
}

function wordBefore(s: string, i: number): boolean {
  if (i === 0) return false;
  const c = s.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) return isWordCodePoint(s.codePointAt(i - 2)!);
  return isWordCodePoint(c);
}

function wordAfter(s: string, i: number): boolean {
  return i < s.length && isWordCodePoint(s.codePointAt(i)!);
}

const compiledCache = new WeakMap<readonly KeywordGroup[], CompiledGroups>();

/** Compiles once per groups array (callers reuse the array of a task). */
export function compileGroups(groups: readonly KeywordGroup[]): CompiledGroups {
  const cached = compiledCache.get(groups);
  if (cached) return cached;
  const byFirst = new Map<number, Candidate[]>();
  const aliasGroups = new Map<string, number[]>();
  groups.forEach((group, index) => {
    for (const alias of group.aliases) {
      const folded = fold(alias.trim());
      if (!folded) continue;
      const owners = aliasGroups.get(folded) ?? [];
      if (owners.includes(index)) continue;
      owners.push(index);
      aliasGroups.set(folded, owners);
      const candidate: Candidate = {
        folded,
        group: index,
        checkStart: isWordCodePoint(folded.codePointAt(0)!),
        checkEnd: wordBefore(folded, folded.length),
      };
      const first = folded.charCodeAt(0);
      const list = byFirst.get(first) ?? [];
      list.push(candidate);
      byFirst.set(first, list);
    }
  });
  const firstUnits = new Uint8Array(0x10000);
  for (const [unit, list] of byFirst) {
    firstUnits[unit] = 1;
    list.sort((a, b) => b.folded.length - a.folded.length || a.group - b.group);
  }
  const compiled = { keywords: groups.map((g) => g.keyword), byFirst, firstUnits, aliasGroups };
  compiledCache.set(groups, compiled);
  return compiled;
}

/** The folded text of `text`: all of it, or its Markdown text pieces. */
export function foldText(text: string, markdown: boolean): Folded {
  const builder = new FoldBuilder(text);
  if (!markdown) {
    builder.add(0, text.length);
    return builder.build();
  }
  const pieces = markdownText(text);
  for (let k = 0; k < pieces.length; k += 3) {
    if (pieces[k + 2]) builder.separate();
    builder.add(pieces[k]!, pieces[k + 1]!);
  }
  return builder.build();
}

/** Matches in folded text, as [group, start, end) in original offsets. */
export function matchFolded(
  compiled: CompiledGroups,
  folded: Folded,
  onMatch: (group: number, start: number, end: number) => void,
): void {
  const { text, starts, ends } = folded;
  const { firstUnits, byFirst } = compiled;
  const n = text.length;
  let i = 0;
  scan: while (i < n) {
    const unit = text.charCodeAt(i);
    if (firstUnits[unit] && (i === 0 || starts[i] !== starts[i - 1])) {
      for (const c of byFirst.get(unit)!) {
        const end = i + c.folded.length;
        if (
          end <= n &&
          text.startsWith(c.folded, i) &&
          (end === n || starts[end] !== starts[end - 1]) &&
          !(c.checkStart && wordBefore(text, i)) &&
          !(c.checkEnd && wordAfter(text, end))
        ) {
          onMatch(c.group, starts[i]!, ends[end - 1]!);
          i = end;
          continue scan;
        }
      }
    }
    i++;
  }
}

/**
 * Every mention of every group in `text`, in text order, never overlapping
 * (at one place the longest alias wins). `markdown: true` (the default):
 * Markdown syntax and link/image URLs are not text (markdown.ts); `markdown:
 * false` for plain text (a page's DOM text, a title). Offsets are in the
 * ORIGINAL `text`.
 */
export function findMentions(
  text: string,
  groups: readonly KeywordGroup[],
  o: { markdown?: boolean } = {},
): MentionRange[] {
  const compiled = compileGroups(groups);
  const found: MentionRange[] = [];
  if (!compiled.byFirst.size || !text) return found;
  matchFolded(compiled, foldText(text, o.markdown ?? true), (group, start, end) =>
    found.push({ keyword: compiled.keywords[group]!, start, end }),
  );
  return found;
}
