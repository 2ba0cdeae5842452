/**
 * The pieces of a text that are text to a reader (markdown.ts decides which),
 * and bare URLs, which never are.
 */

/** Text pieces of the source: flat triples [start, end, separated] (separated: 1 when a separating syntax precedes). */
export class TextPieces {
  readonly flat: number[] = [];
  private separated = false;

  text(start: number, end: number): void {
    if (end <= start) return;
    const n = this.flat.length;
    if (!this.separated && n && this.flat[n - 2] === start) {
      this.flat[n - 2] = end;
      return;
    }
    this.flat.push(start, end, this.separated ? 1 : 0);
    this.separated = false;
  }

  separate(): void {
    this.separated = true;
  }
}

const URL_START = /https?:\/\/./gi;

/** The text pieces of plain text with its bare URLs left out (code, see above). */
export function addCode(source: string, out: TextPieces, start: number, end: number): void {
  let from = start;
  URL_START.lastIndex = start;
  for (let m = URL_START.exec(source); m && m.index < end; m = URL_START.exec(source)) {
    out.text(from, m.index);
    out.separate();
    from = bareUrlEnd(source, m.index, end);
    URL_START.lastIndex = from;
  }
  out.text(from, end);
}

function isUrlStop(c: number): boolean {
  return (
    c <= 32 ||
    c >= 0x80 ||
    c === 0x3c || // <
    c === 0x3e || // >
    c === 0x22 || // "
    c === 0x60 || // `
    c === 0x7c // |
  );
}

/** Where a bare URL starting at `start` ends. */
export function bareUrlEnd(source: string, start: number, end: number): number {
  let i = start;
  while (i < end && !isUrlStop(source.charCodeAt(i))) i++;
  for (;;) {
    const last = source[i - 1]!;
    if (".,:;!?'*_~".includes(last)) i--;
    else if (last === ')' || last === ']') {
      const open = last === ')' ? '(' : '[';
      const span = source.slice(start, i);
      if (span.split(open).length >= span.split(last).length) break;
      i--;
    } else break;
  }
  return i;
}
