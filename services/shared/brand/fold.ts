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

/** The length of the combining mark at `i`, or 0. */
function markAt(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x300 || isStable(c)) return 0;
  const cp = text.codePointAt(i)!;
  if (!MARK.test(String.fromCodePoint(cp))) return 0;
  return cp > 0xffff && i + 1 < end ? 2 : 1;
}

export class FoldBuilder {
  private units: Uint16Array;
  private starts: Int32Array;
  private ends: Int32Array;
  private length = 0;

  constructor(private readonly source: string) {
    const capacity = source.length + 16;
    this.units = new Uint16Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  /** Folds `source[start, end)` onto the end. */
  add(start: number, end: number): void {
    const { source } = this;
    let i = start;
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
        this.push(c >= 65 && c <= 90 ? c + 32 : c, i, j);
      } else {
        const folded = source.slice(i, j).normalize('NFKC').toLowerCase();
        for (let k = 0; k < folded.length; k++) this.push(folded.charCodeAt(k), i, j);
      }
      i = j;
    }
  }

  separate(): void {
    if (this.length && this.units[this.length - 1] !== SEPARATOR) this.push(SEPARATOR, -1, -1);
  }

  build(): Folded {
    const n = this.length;
    const parts: string[] = [];
    for (let k = 0; k < n; k += 8192) {
      parts.push(
        String.fromCharCode.apply(
          null,
          this.units.subarray(k, Math.min(n, k + 8192)) as unknown as number[],
        ),
      );
    }
    return {
      text: parts.join(''),
      starts: this.starts.subarray(0, n),
      ends: this.ends.subarray(0, n),
    };
  }

  private push(unit: number, start: number, end: number): void {
    if (this.length === this.units.length) this.grow();
    const k = this.length++;
    this.units[k] = unit;
    this.starts[k] = start;
    this.ends[k] = end;
  }

  /** NFKC can lengthen the text (`㈱` is 3 units): rarely needed. */
  private grow(): void {
    const capacity = this.units.length * 2;
    const units = new Uint16Array(capacity);
    const starts = new Int32Array(capacity);
    const ends = new Int32Array(capacity);
    units.set(this.units);
    starts.set(this.starts);
    ends.set(this.ends);
    this.units = units;
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
