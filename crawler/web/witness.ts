/**
 * Two witnesses of one answer: the text assembled from the chat call's
 * stream, and the text the page rendered. A parser that silently dropped a
 * frame it could not place (a renamed chunk event) assembles an answer with a
 * sentence missing; the page, which the site's own script renders, still shows
 * it. Comparing the two after normalising away what only the rendering changes
 * (Markdown syntax, citation markers, whitespace, full-width forms) tells a
 * formatting difference from lost or extra content. Pure.
 */

/** How much of each side a difference shows around the first place they part. */
const SHOWN_CHARS = 24;

/** Citation markers as the sites write them in the stream; the page draws them as chips or drops them. */
const CITATIONS = [
  /\[\^\d+\^\]/g, // Kimi [^1^]
  /\[(?:citation|reference):\s*\d+\]/gi, // DeepSeek, Yuanbao
  /\[\d+(?:\s*[,，]\s*\d+)*\]/g, // [1], [1, 2]
  // Kimi's private-use cite marks, `\uE200cite\uE202web_search:1#3\uE201`, whole or in part
  /\uE200[^\uE200\uE201\n]{0,60}\uE201/g,
  /(?:cite)?web_search:\d+#\d+(?:cite)?/g,
  /[\uE000-\uF8FF]/g,
];

/** One line's Markdown block syntax: headings, quotes, list markers, table rules. */
const LINE_SYNTAX = [
  /^\s{0,3}#{1,6}\s+/, // heading
  /^\s*(?:>\s?)+/, // blockquote
  /^\s*(?:[-*+•]|\d{1,3}[.)、])\s+/, // list item
  /^\s*(?:[-*_]\s*){3,}$/, // thematic break
  /^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/, // table rule
  /^\s*(?:```|~~~).*$/, // code fence
];

/**
 * The answer's words as a reader sees them: Markdown syntax, citation
 * markers, full-width forms and every whitespace removed (a rendered page
 * breaks and joins lines its own way; Chinese text has no spaces to lose).
 */
export function normaliseAnswer(text: string): string {
  let s = text.normalize('NFKC');
  for (const c of CITATIONS) s = s.replace(c, '');
  s = s
    .split(/\r?\n/)
    .map((line) => LINE_SYNTAX.reduce((l, re) => l.replace(re, ''), line))
    .join('\n');
  return (
    s
      // images and links keep their text: ![alt](src), [text](url), <url>
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/<(https?:\/\/[^>\s]+)>/g, '$1')
      // HTML a page may leave in place (<br>, <sup>…)
      .replace(/<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?\/?>/gi, '')
      // emphasis, strike and inline code marks
      .replace(/(\*{1,3}|_{2,3}|~~|`+)/g, '')
      // list markers a page drew inline (a paragraph's newlines collapse to spaces)
      .replace(/(^|\s)(?:[-*+•]|\d{1,3}[.)、])\s+/g, '$1')
      // table cell walls
      .replace(/\|/g, '')
      .replace(/\s+/g, '')
  );
}

export type WitnessVerdict =
  | { agree: true }
  | {
      agree: false;
      /** The first differing span each side, readable: `stream "…佳巧，引…" vs page "…佳能R50…"`. */
      difference: string;
    };

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * Whether the two normalised texts say the same, digits aside: a page draws a
 * citation as a bare number chip (`2`) where the stream wrote `[reference:2]`,
 * so a run of digits only one side has never makes a disagreement.
 */
function sameBesideDigits(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if (isDigit(b[j])) j++;
    else if (isDigit(a[i])) i++;
    else return false;
  }
  return true;
}

/** Where two strings first part, and how far their common ending reaches back. */
function firstDifference(a: string, b: string): { at: number; endA: number; endB: number } {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  let endA = a.length;
  let endB = b.length;
  while (endA > at && endB > at && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { at, endA, endB };
}

const span = (s: string, from: number, to: number) => {
  const start = Math.max(0, from - 6);
  const end = Math.min(s.length, Math.max(to, from) + 6);
  const shown = s.slice(start, Math.min(end, start + SHOWN_CHARS));
  return `${start > 0 ? '…' : ''}${shown}${start + shown.length < s.length ? '…' : ''}`;
};

/**
 * Whether the answer assembled from the stream says what the page rendered.
 * Disagreeing, it names the first differing span of each side (with a little
 * context), and what is missing or extra when one side holds more.
 */
export function compareWitnesses(stream: string, page: string): WitnessVerdict {
  const a = normaliseAnswer(stream);
  const b = normaliseAnswer(page);
  if (a === b || sameBesideDigits(a, b)) return { agree: true };
  const { at, endA, endB } = firstDifference(a, b);
  const what =
    endA === at
      ? `the stream lacks "${b.slice(at, Math.min(endB, at + SHOWN_CHARS))}"`
      : endB === at
        ? `the page lacks "${a.slice(at, Math.min(endA, at + SHOWN_CHARS))}"`
        : 'they differ';
  return {
    agree: false,
    difference: `${what} at character ${at}: stream "${span(a, at, endA)}" vs page "${span(b, at, endB)}"`,
  };
}
