/**
 * The brands or products an answer recommends, read from the answer's own
 * lists: a pure line scanner over Markdown, like markdown.ts.
 *
 * A list is a run of sibling items (ordered `1.` `1)` or bulleted `-` `*` `+`,
 * at one indentation; blank lines, indented continuation lines and deeper
 * items may sit between them; deeper items form lists of their own), or the
 * body rows of a table (the rows after its `| --- |` delimiter row). Each
 * item or row is one entry, named by:
 * - a list item: its leading bold text (`**Acme**`, `__Acme__`) or leading
 *   link text (`[Acme](https://…)`); otherwise the text before the first
 *   separator (` - `, `–`, `—`, `:`, `：`, `(`, `（`, `,`, `，`, `、`, `;`, `；`,
 *   `. `, `。`), or the whole item when there is none;
 * - a table row: its first cell that holds a letter (a leading `#`/`1`/`No.`
 *   column of places is skipped).
 * Code fences are skipped.
 *
 * A group's position (`positionsOf`) is its place among the entries of the
 * lists that name one of the user's groups, so a list of considerations
 * (`- **Pricing**: …`) is no recommendation; those lists' entries are taken
 * in document order, an entry repeated with the same name (a list, then a
 * table of the same brands; compared by letters and digits, case-insensitive,
 * link targets left out) counted once. A group the answer names outside
 * those lists comes after all their entries, in the order of first naming.
 * An answer without such a list orders the groups by first naming, so its
 * positions equal the group ranks.
 */

export interface Entry {
  /** The entry's name as written (Markdown kept): `answer.slice(start, end)`. */
  start: number;
  end: number;
}

/** One list or table of the answer, in document order of its first entry. */
export type EntryList = Entry[];

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/;
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const LEADING_STRONG = /^(\*\*|__)(?=\S)(.+?)(?<=\S)\1/;
const LEADING_LINK = /^\[((?:[^\]\\]|\\.)+)\]\([^)]*\)/;
const SEPARATOR = /\s[-–—]\s|[–—:：(（,，、;；。]|\.(?:\s|$)/;
const LETTER = /\p{L}/u;

interface OpenList {
  indent: number;
  ordered: boolean;
  entries: Entry[];
}

/** Leading whitespace width (a tab counts 4). */
function indentOf(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === ' ') width++;
    else if (ch === '\t') width += 4;
    else break;
  }
  return width;
}

/** The name of a list item whose content is `answer[from, to)`. */
function itemName(answer: string, from: number, to: number): Entry | null {
  const content = answer.slice(from, to);
  const lead = LEADING_STRONG.exec(content) ?? LEADING_LINK.exec(content);
  if (lead) return { start: from, end: from + lead[0].length };
  const cut = SEPARATOR.exec(content);
  const name = cut ? content.slice(0, cut.index) : content;
  return trimmed(from, name);
}

function trimmed(offset: number, text: string): Entry | null {
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  return end > start ? { start: offset + start, end: offset + end } : null;
}

/** The cells of a table row at `answer[from, to)`, split on unescaped pipes. */
function cellsOf(answer: string, from: number, to: number): Entry[] {
  const cells: Entry[] = [];
  let cellStart = from;
  const push = (end: number) => {
    const cell = trimmed(cellStart, answer.slice(cellStart, end));
    if (cell) cells.push(cell);
  };
  for (let i = from; i < to; i++) {
    if (answer[i] === '\\') i++;
    else if (answer[i] === '|') {
      push(i);
      cellStart = i + 1;
    }
  }
  push(to);
  return cells;
}

function rowName(answer: string, from: number, to: number): Entry | null {
  return cellsOf(answer, from, to).find((c) => LETTER.test(answer.slice(c.start, c.end))) ?? null;
}

/** Every list and table of the answer with its entries, in document order. */
export function entryLists(answer: string): EntryList[] {
  const lists: { at: number; entries: Entry[] }[] = [];
  const open: (OpenList & { at: number })[] = [];
  const close = (keep: (l: OpenList) => boolean) => {
    while (open.length && !keep(open[open.length - 1]!)) {
      const l = open.pop()!;
      if (l.entries.length) lists.push({ at: l.at, entries: l.entries });
    }
  };
  const lines: { start: number; end: number }[] = [];
  for (let start = 0; start <= answer.length;) {
    const nl = answer.indexOf('\n', start);
    const end = nl < 0 ? answer.length : nl;
    lines.push({ start, end: answer[end - 1] === '\r' ? end - 1 : end });
    start = end + 1;
  }
  let fence: string | null = null;
  let table: Entry[] | null = null;
  let tableAt = 0;
  for (let n = 0; n < lines.length; n++) {
    const { start, end } = lines[n]!;
    const line = answer.slice(start, end);
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
      continue;
    }
    if (table !== null) {
      if (line.includes('|') && line.trim()) {
        const name = rowName(answer, start, end);
        if (name) table.push(name);
        continue;
      }
      if (table.length) lists.push({ at: tableAt, entries: table });
      table = null;
    }
    if (fenceMark) {
      fence = fenceMark;
      continue;
    }
    if (!line.trim()) continue;
    const next = lines[n + 1];
    if (line.includes('|') && next && TABLE_DELIMITER.test(answer.slice(next.start, next.end))) {
      close(() => false);
      table = [];
      tableAt = start;
      n++;
      continue;
    }
    const item = ITEM.exec(line);
    const indent = indentOf(line);
    if (!item) {
      // A line indented under an item continues it; any other line ends the lists it is not inside.
      close((l) => l.indent < indent);
      continue;
    }
    const ordered = /\d/.test(item[2]!);
    close(
      (l) => l.indent < indent - 1 || (Math.abs(l.indent - indent) <= 1 && l.ordered === ordered),
    );
    let list = open[open.length - 1];
    if (!list || list.indent < indent - 1) {
      list = { indent, ordered, entries: [], at: start };
      open.push(list);
    }
    const name = itemName(answer, start + item[0].length, end);
    if (name) list.entries.push(name);
  }
  if (table?.length) lists.push({ at: tableAt, entries: table });
  close(() => false);
  return lists.sort((a, b) => a.at - b.at).map((l) => l.entries);
}

/** One mention in the answer: the group's index and its range (matcher.ts). */
export interface MentionAt {
  group: number;
  start: number;
  end: number;
}

/** An entry's name compared across lists: letters and digits, lower case, link targets left out. */
const nameKey = (name: string): string =>
  name
    .replace(/\]\([^)]*\)/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .toLowerCase();

/**
 * Per group (`groups` of them, in group order), its position among the
 * brands or products the answer recommends (see above); null for a group
 * the answer does not name. `mentions`: every mention in the answer, in text
 * order, as brandFields finds them (an entry names a group when a mention
 * lies inside its name); `lists`: `entryLists(answer)` when the caller has it.
 */
export function positionsOf(
  groups: number,
  answer: string,
  mentions: readonly MentionAt[],
  lists: readonly EntryList[] = entryLists(answer),
): (number | null)[] {
  const positions = new Array<number | null>(groups).fill(null);
  if (!mentions.length) return positions;
  /** The groups a mention inside `answer[start, end)` names. */
  const namedIn = (start: number, end: number): number[] => {
    let lo = 0;
    let hi = mentions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (mentions[mid]!.start < start) lo = mid + 1;
      else hi = mid;
    }
    const named: number[] = [];
    for (let k = lo; k < mentions.length && mentions[k]!.end <= end; k++) {
      named.push(mentions[k]!.group);
    }
    return named;
  };
  const seen = new Set<string>();
  let entries = 0;
  for (const list of lists) {
    const read = list.map((e) => ({
      key: nameKey(answer.slice(e.start, e.end)),
      names: namedIn(e.start, e.end),
    }));
    if (!read.some((e) => e.names.length)) continue;
    for (const { key, names } of read) {
      if (seen.has(key)) continue;
      seen.add(key);
      entries++;
      for (const g of names) positions[g] ??= entries;
    }
  }
  for (const { group } of mentions) if (positions[group] === null) positions[group] = ++entries;
  return positions;
}
