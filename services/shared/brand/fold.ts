/**
 * Folding for matching: NFKC, then lower case, done one chunk at a time (a
 * code point and the combining marks after it), so that every unit of the
 * folded text knows the span of the original text it came from. NFKC changes
 * lengths (`㈱` → `(株)`, `e` + U+0301 → `é`), so offsets cannot be shared.
 *
 * Aliases are folded with the same chunking, so the two sides always agree
 * (whole-string NFKC differs from chunked NFKC only for conjoining Hangul
 * jamo, which no one writes as jamo).
 */

/** Put between text pieces that Markdown syntax separates (a table pipe, a URL). */
export const SEPARATOR = 10; // '\n': parseKeywords splits entries on newlines, so no alias holds one

export interface Folded {
  text: string;
  /** Per folded unit: the original chunk it came from, [start, end); a separator has start -1. */
  starts: Int32Array;
  ends: Int32Array;
}

const MARK = /^\p{M}$/u;

/** Units that NFKC and lower-casing leave alone (ASCII minus A–Z aside) and that no mark composes with here. */
function isStable(c: number): boolean {
  return (
    c < 0x80 ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x3041 && c <= 0x3096) ||
    (c >= 0x30a1 && c <= 0x30fa) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0x3001 && c <= 0x3002) ||
    (c >= 0x3008 && c <= 0x3011)
  );
}

/** Per BMP unit: 0 not looked up yet, 1 a combining mark, 2 not one (a cache: the regex is slow). */
const markKind = new Uint8Array(0x10000);
/** The folding of single BMP units that are not stable, as met (at most 64 Ki entries). */
const unitFolds = new Map<number, string>();

/** The length of the combining mark at `i`, or 0. */
function markAt(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x300 || isStable(c)) return 0;
  if (c < 0xd800 || c > 0xdfff) {
    if (!markKind[c]) markKind[c] = MARK.test(String.fromCharCode(c)) ? 1 : 2;
    return markKind[c] === 1 ? 1 : 0;
  }
  const cp = text.codePointAt(i)!;
  if (!MARK.test(String.fromCodePoint(cp))) return 0;
  return cp > 0xffff && i + 1 < end ? 2 : 1;
}

/** NFKC, then lower case, of one chunk. */
function foldChunk(source: string, i: number, j: number): string {
  if (j !== i + 1) return source.slice(i, j).normalize('NFKC').toLowerCase();
  const c = source.charCodeAt(i);
  let folded = unitFolds.get(c);
  if (folded === undefined) {
    folded = String.fromCharCode(c).normalize('NFKC').toLowerCase();
    unitFolds.set(c, folded);
  }
  return folded;
}

export class FoldBuilder {
  /** The folded text so far, as parts: runs of stable characters are sliced, not copied unit by unit. */
  private readonly parts: string[] = [];
  private starts: Int32Array;
  private ends: Int32Array;
  private length = 0;
  private lastUnit = -1;

  constructor(private readonly source: string) {
    const capacity = source.length + 16;
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  /** Folds `source[start, end)` onto the end. */
  add(start: number, end: number): void {
    const { source } = this;
    let i = start;
    let run = start; // start of the pending run of stable single-unit chunks
    while (i < end) {
      const c = source.charCodeAt(i);
      let j = i + 1;
      if (c >= 0xd800 && c <= 0xdbff && j < end) {
        const d = source.charCodeAt(j);
        if (d >= 0xdc00 && d <= 0xdfff) j++;
      }
      let simple = j === i + 1 && isStable(c);
      for (
        let m = j < end ? markAt(source, j, end) : 0;
        m;
        m = j < end ? markAt(source, j, end) : 0
      ) {
        j += m;
        simple = false;
      }
      if (simple) {
        this.map(i, j);
      } else {
        this.flush(run, i);
        const folded = foldChunk(source, i, j);
        for (let k = 0; k < folded.length; k++) this.map(i, j);
        if (folded) {
          this.parts.push(folded);
          this.lastUnit = folded.charCodeAt(folded.length - 1);
        }
        run = j;
      }
      i = j;
    }
    this.flush(run, end);
  }

  separate(): void {
    if (this.length && this.lastUnit !== SEPARATOR) {
      this.map(-1, -1);
      this.parts.push('\n');
      this.lastUnit = SEPARATOR;
    }
  }

  build(): Folded {
    const n = this.length;
    return {
      text: this.parts.join(''),
      starts: this.starts.subarray(0, n),
      ends: this.ends.subarray(0, n),
    };
  }

  /** Appends the stable run `source[from, to)`: lower case is its whole folding (ASCII A–Z only). */
  private flush(from: number, to: number): void {
    if (to <= from) return;
    const part = this.source.slice(from, to).toLowerCase();
    this.parts.push(part);
    this.lastUnit = part.charCodeAt(part.length - 1);
  }

  /** The next folded unit comes from `source[start, end)`. */
  private map(start: number, end: number): void {
    if (this.length === this.starts.length) this.grow();
    const k = this.length++;
    this.starts[k] = start;
    this.ends[k] = end;
  }

  /** NFKC can lengthen the text (`㈱` is 3 units): rarely needed. */
  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.starts.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }
}

/** `s` folded as text is: how aliases are compared. */
export function fold(s: string): string {
  const b = new FoldBuilder(s);
  b.add(0, s.length);
  return b.build().text;
}
