/**
 * Which parts of a Markdown answer are text a reader sees, for mention
 * matching. A small line-by-line scanner, not a renderer: it knows the syntax
 * AI answers use and errs towards text.
 *
 * Not text:
 * - syntax that renders as nothing ("transparent": the text on both sides
 *   joins, `**Acme**'s` reads `Acme's`): emphasis and strike-through markers,
 *   backslashes of escapes, the backticks of code, `[` `](url "title")` of
 *   links and `![` `](url)` of images (link text and image alt text are
 *   text), `[` `][ref]` of reference links, inline HTML tags;
 * - syntax that separates ("separating": a boundary that no mention crosses):
 *   heading `#`s, block quote `>`, list markers and task boxes, table pipes
 *   and delimiter rows, thematic breaks, code fence lines, reference
 *   definitions (`[1]: https://…`, the whole line), autolinks `<https://…>`,
 *   bare URLs.
 *
 * Code (spans and fenced blocks) is text, verbatim: a brand named in code is
 * shown to the reader. Bare URLs are not text even there.
 *
 * A bare URL is `http://` or `https://` and what follows up to whitespace,
 * `<`, `>`, `"`, `` ` ``, `|` or the first non-ASCII character (Chinese
 * answers run on after a URL without a space: `见https://acme.com了解阿克米`;
 * a URL with raw non-ASCII characters is cut there, and the rest is text),
 * without trailing `.,:;!?'*_~` or an unbalanced `)`/`]`.
 *
 * Inline constructs do not span lines (a link or code span broken over two
 * lines is read as text).
 */

import { addCode, bareUrlEnd, TextPieces } from './text-pieces.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const REFERENCE_DEFINITION =
  /^ {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*(?:<[^>]*>|\S+)(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$/;
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:-[ \t]*){3,}|=+[ \t]*)$/;
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)(?:\[[ xX]\](?:[ \t]+|$))?/;
const HEADING = /^#{1,6}(?:[ \t]+|$)/;
const HEADING_CLOSE = /[ \t]+#+[ \t]*$/;
const AUTOLINK =
  /^<(?:[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)*)>/;
const HTML_TAG = /^<\/?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?\/?>/;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const ALNUM = /[\p{L}\p{N}]/u;
/** How far a link's `]` and `)` are looked for (keeps `[[[[…` lines linear). */
const LINK_REACH = 2000;
const MAX_NESTING = 8;

/** The text pieces of a Markdown document. */
export function markdownText(source: string): number[] {
  return new Scanner(source).scan();
}

class Scanner {
  private readonly out = new TextPieces();

  constructor(private readonly src: string) {}

  scan(): number[] {
    const { src, out } = this;
    let fence: string | null = null;
    for (let lineStart = 0; lineStart <= src.length;) {
      let lineEnd = src.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = src.length;
      const line = src.slice(lineStart, lineEnd);
      if (fence !== null) {
        const close = FENCE.exec(line);
        if (
          close &&
          close[1]![0] === fence[0] &&
          close[1]!.length >= fence.length &&
          !line.slice(close[0].length).trim()
        ) {
          fence = null;
          out.separate();
        } else addCode(src, out, lineStart, lineEnd);
      } else {
        const open = FENCE.exec(line);
        if (open && !(open[1]![0] === '`' && line.slice(open[0].length).includes('`'))) {
          fence = open[1]!;
          out.separate();
        } else if (
          REFERENCE_DEFINITION.test(line) ||
          TABLE_DELIMITER.test(line) ||
          THEMATIC_BREAK.test(line)
        ) {
          out.separate();
        } else this.block(lineStart, lineEnd);
      }
      if (lineEnd < src.length) out.text(lineEnd, lineEnd + 1);
      lineStart = lineEnd + 1;
    }
    return out.flat;
  }

  /** One line outside code fences: block markers, then inline content. */
  private block(start: number, end: number): void {
    const { src } = this;
    let p = start;
    let contentEnd = end;
    for (;;) {
      while (p < end && (src[p] === ' ' || src[p] === '\t')) p++;
      const rest = src.slice(p, Math.min(end, p + 16));
      if (src[p] === '>') p++;
      else if (LIST_MARKER.test(rest)) p += LIST_MARKER.exec(src.slice(p, end))![0].length;
      else {
        const heading = HEADING.exec(rest);
        if (heading) {
          p += heading[0].length;
          const close = HEADING_CLOSE.exec(src.slice(p, end));
          if (close) contentEnd = p + close.index;
        }
        break;
      }
    }
    // Indentation and markers are not text; after a line break they separate nothing more.
    if (p > start) this.out.separate();
    this.inline(p, contentEnd, 0);
  }

  private inline(from: number, to: number, depth: number): void {
    const { src, out } = this;
    let textStart = from;
    let i = from;
    while (i < to) {
      const c = src.charCodeAt(i);
      /** Where the syntax at `i` ends (-1: `i` is text), and whether it separates. */
      let syntaxEnd = -1;
      let separating = false;
      switch (c) {
        case 0x5c: // \ (the escaped character stays text)
          if (i + 1 < to && ASCII_PUNCTUATION.test(src[i + 1]!)) syntaxEnd = i + 1;
          break;
        case 0x60: {
          // `
          const n = runLength(src, i, to);
          const close = codeSpanClose(src, i + n, to, n);
          if (close < 0) {
            i += n - 1;
            break;
          }
          out.text(textStart, i);
          addCode(src, out, i + n, close);
          textStart = i = close + n;
          continue;
        }
        case 0x2a: // *
          syntaxEnd = i + runLength(src, i, to);
          break;
        case 0x7e: {
          // ~
          const n = runLength(src, i, to);
          if (n >= 2) syntaxEnd = i + n;
          break;
        }
        case 0x5f: {
          // _: intraword underscores are text (snake_case)
          const n = runLength(src, i, to);
          const inWord =
            i > from && ALNUM.test(src[i - 1]!) && i + n < to && ALNUM.test(src[i + n]!);
          if (inWord) i += n - 1;
          else syntaxEnd = i + n;
          break;
        }
        case 0x21: // !
        case 0x5b: {
          // [
          const open = c === 0x5b ? i + 1 : src.charCodeAt(i + 1) === 0x5b ? i + 2 : -1;
          const link = open < 0 ? null : this.link(open, to, depth);
          if (!link) break;
          out.text(textStart, i);
          this.inline(open, link.close, depth + 1);
          textStart = i = link.after;
          continue;
        }
        case 0x3c: {
          // <
          const rest = src.slice(i, Math.min(to, i + LINK_REACH));
          const auto = AUTOLINK.exec(rest);
          const tag = auto ? null : HTML_TAG.exec(rest);
          if (auto) {
            syntaxEnd = i + auto[0].length;
            separating = true;
          } else if (tag) syntaxEnd = i + tag[0].length;
          break;
        }
        case 0x7c: // |
          syntaxEnd = i + 1;
          separating = true;
          break;
        case 0x68:
        case 0x48: // h H
          if (
            (src.charCodeAt(i + 1) | 0x20) === 0x74 &&
            /^https?:\/\/./i.test(src.slice(i, Math.min(to, i + 9)))
          ) {
            syntaxEnd = bareUrlEnd(src, i, to);
            separating = true;
          }
          break;
      }
      if (syntaxEnd < 0) {
        i++;
        continue;
      }
      out.text(textStart, i);
      if (separating) out.separate();
      textStart = i = syntaxEnd;
      // An escaped character is text, whatever it is.
      if (c === 0x5c) i++;
    }
    out.text(textStart, to);
  }

  /**
   * The link or image whose text starts at `open` (after `[` or `![`): where
   * its text ends (`]`) and where its destination (`(url "title")` or
   * `[ref]`) ends; null when it is not one (`[1]` stays text).
   */
  private link(open: number, to: number, depth: number): { close: number; after: number } | null {
    if (depth >= MAX_NESTING) return null;
    const { src } = this;
    const close = matching(src, open, Math.min(to, open + LINK_REACH), '[', ']');
    if (close < 0) return null;
    const bracket = src[close + 1];
    if (bracket !== '(' && bracket !== '[') return null;
    const closer = bracket === '(' ? ')' : ']';
    const end = matching(src, close + 2, Math.min(to, close + 2 + LINK_REACH), bracket, closer);
    return end < 0 ? null : { close, after: end + 1 };
  }
}

function runLength(src: string, i: number, to: number): number {
  let j = i + 1;
  while (j < to && src.charCodeAt(j) === src.charCodeAt(i)) j++;
  return j - i;
}

/** Where the closing backtick run of length `n` starts, or -1. */
function codeSpanClose(src: string, from: number, to: number, n: number): number {
  for (let i = src.indexOf('`', from); i >= 0 && i < to; i = src.indexOf('`', i)) {
    const m = runLength(src, i, to);
    if (m === n) return i;
    i += m;
  }
  return -1;
}

/** The index of the `closer` that balances an opener before `from`, skipping escapes; -1 if none before `to`. */
function matching(src: string, from: number, to: number, opener: string, closer: string): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const ch = src[i];
    if (ch === '\\') i++;
    else if (ch === opener) depth++;
    else if (ch === closer) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}
