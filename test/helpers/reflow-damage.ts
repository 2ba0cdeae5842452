/**
 * Reflow damage in Markdown prose (pure). A hard-wrapped sentence whose next
 * line happens to start with a number and a dot (`samples` / `1. is no
 * difference`), a dash or a hash becomes a list or a heading, and a formatter
 * then sets it apart with a blank line: the sentence is cut in two. Found as a
 * list or heading that begins right after a paragraph whose last line stops
 * mid-sentence (on a word, a digit or a comma), blank lines between or not.
 * Lists go on through their items and indented lines; fenced code blocks,
 * tables, quotes and HTML are not prose and are skipped.
 */
export interface ReflowDamage {
  /** 1-based line of the marker that continues a sentence. */
  line: number;
  /** The line whose sentence it continues, and the marker's line. */
  before: string;
  text: string;
}

const LIST_ITEM = /^ *(?:\d{1,9}[.)]|[-+*]) +\S/;
const HEADING = /^ {0,3}#{1,6} /;
const FENCE = /^ *(`{3,}|~{3,})/;
const NOT_PROSE = /^ *[|<>]/;
const MID_SENTENCE = /[\p{L}\p{N},]$/u;

export function reflowDamage(markdown: string): ReflowDamage[] {
  const found: ReflowDamage[] = [];
  const lines = markdown.split('\n');
  let fence: string | null = null;
  /** The last line of the paragraph before, while no list, heading or block came after it. */
  let lastProse: string | null = null;
  let inList = false;
  lines.forEach((line, i) => {
    const opening = FENCE.exec(line);
    if (fence !== null) {
      if (opening && opening[1]!.startsWith(fence)) fence = null;
      return;
    }
    if (opening) {
      fence = opening[1]!;
      lastProse = null;
      return;
    }
    if (line.trim() === '') return;
    const startsList = LIST_ITEM.test(line) && !inList;
    if ((startsList || HEADING.test(line)) && lastProse !== null) {
      if (MID_SENTENCE.test(lastProse.trimEnd()))
        found.push({ line: i + 1, before: lastProse.trim(), text: line.trim() });
    }
    if (LIST_ITEM.test(line)) {
      inList = true;
      lastProse = null;
      return;
    }
    // A list ends at the first unindented line after a blank line that is not an item.
    if (inList && (lines[i - 1] ?? '').trim() === '' && !/^ /.test(line)) inList = false;
    if (inList) return;
    lastProse = HEADING.test(line) || NOT_PROSE.test(line) ? null : line;
  });
  return found;
}
