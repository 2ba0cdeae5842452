/**
 * Discovered brands of one answer: the brands or products it recommends that
 * match none of the task's keyword groups. Pure; called with the answer's
 * brand fields (mentions.ts), stored on the sub task, and summed over a task
 * or a monitor run by insights.ts.
 *
 * What counts:
 * - the entries of the answer's recommendation lists and tables, as
 *   recommended.ts names them, and numbered headings (`### 2. Initech`), one
 *   list of their own. A list is a recommendation list when an entry names a
 *   group, or when at least half its entries pass the brand rule
 *   (brand-name.ts), so a list of considerations or steps is none;
 * - bold and linked names elsewhere (prose, the bodies of list items,
 *   headings), when they pass the brand rule.
 * An entry or name inside which a group is mentioned is that group, not a
 * discovery. Names merge by `brandKey` (case, width, punctuation and Markdown
 * removed); the first spelling is kept.
 *
 * Position: the place among all the entries of the recommendation lists, in
 * document order, an entry repeated with the same key counted once (as
 * recommended.ts places groups, here over every recommendation list); a name
 * found only outside lists comes after all entries, in the order of first
 * naming.
 */
import type { DiscoveredEntry } from '../contracts/brand.js';
import { isBrandName, proseEmphasis, readName, type ReadName } from './brand-name.js';
import { entryLists, type Entry, type MentionAt } from './recommended.js';

const NUMBERED_HEADING = /^ {0,3}#{1,6}[ \t]+(?:\*\*|__)?\d{1,2}[.)、．][ \t]*/gm;
const INLINE_NAME =
  /(\*\*|__)(?=\S)([^*_\n]{1,60}?)(?<=\S)\1|(?<!!)\[([^\]\n]{1,60})\]\([^)\n]*\)/g;
const HEADING_CUT = /\s[-–—|]\s|[–—:：(（,，、;；。]|\.(?:\s|$)/;
const FENCE = /^ {0,3}(?:`{3,}|~{3,})/m;

/** Numbered headings (`## 1. Acme — the pick`) as one list of entries. */
function headingList(answer: string): Entry[] {
  const entries: Entry[] = [];
  for (const m of answer.matchAll(NUMBERED_HEADING)) {
    const from = m.index + m[0].length;
    const lineEnd = answer.indexOf('\n', from);
    const line = answer.slice(from, lineEnd < 0 ? answer.length : lineEnd);
    const lead = /^(\*\*|__)(?=\S)(.+?)(?<=\S)\1/.exec(line);
    const cut = HEADING_CUT.exec(line);
    const name = lead ? lead[0] : cut ? line.slice(0, cut.index) : line;
    if (name.trim()) entries.push({ start: from, end: from + name.trimEnd().length });
  }
  return entries;
}

/**
 * An entry's name; when it is a bold label ending in a colon that is no
 * brand (`**Best overall:** Sony A7 IV`), the text after the label up to the
 * first separator names the entry instead.
 */
function labelledName(answer: string, e: Entry): Entry {
  const raw = answer.slice(e.start, e.end);
  if (!/[:：](?:\*\*|__)$/.test(raw) || isBrandName(raw)) return e;
  const lineEnd = answer.indexOf('\n', e.end);
  const rest = answer.slice(e.end, lineEnd < 0 ? answer.length : lineEnd);
  const cut = HEADING_CUT.exec(rest);
  const name = cut ? rest.slice(0, cut.index) : rest;
  const start = e.end + (name.length - name.trimStart().length);
  const end = e.end + name.trimEnd().length;
  return end > start ? { start, end } : e;
}

/** A sorted mention lies inside `[start, end)`. */
function namesGroup(mentions: readonly MentionAt[], start: number, end: number): boolean {
  let lo = 0;
  let hi = mentions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (mentions[mid]!.start < start) lo = mid + 1;
    else hi = mid;
  }
  return lo < mentions.length && mentions[lo]!.end <= end;
}

/** The ranges of fenced code, where nothing is a name. */
function fencedRanges(answer: string): [number, number][] {
  if (!FENCE.test(answer)) return [];
  const ranges: [number, number][] = [];
  const fence = /^ {0,3}(`{3,}|~{3,}).*$/gm;
  let open: { at: number; mark: string } | null = null;
  for (const m of answer.matchAll(fence)) {
    if (!open) open = { at: m.index, mark: m[1]! };
    else if (m[1]![0] === open.mark[0] && m[1]!.length >= open.mark.length) {
      ranges.push([open.at, m.index + m[0].length]);
      open = null;
    }
  }
  if (open) ranges.push([open.at, answer.length]);
  return ranges;
}

/**
 * The discovered brands of one answer, in order of position. `mentions`:
 * every group mention in the answer, sorted by start (brandFields finds them);
 * `lists`: `entryLists(answer)` when the caller has it already.
 */
export function discoveredIn(
  answer: string,
  mentions: readonly MentionAt[],
  lists: readonly Entry[][] = entryLists(answer),
): DiscoveredEntry[] {
  if (!answer) return [];
  const headings = headingList(answer);
  const all = headings.length ? [...lists, headings] : lists;
  const ordered = [...all].sort((a, b) => a[0]!.start - b[0]!.start);
  const found = new Map<string, DiscoveredEntry>();
  const seen = new Set<string>();
  // Names recur within an answer (`Pricing` under every brand): each is read once.
  const names = new Map<string, ReadName>();
  const read = (raw: string): ReadName => {
    let r = names.get(raw);
    if (!r) names.set(raw, (r = readName(raw)));
    return r;
  };
  // Every entry's lead is read here or nowhere: the bold heads of a list of considerations are no prose names.
  const entryStarts = new Set<number>();
  for (const list of all) for (const e of list) entryStarts.add(e.start);
  let position = 0;
  for (const list of ordered) {
    let groups = 0;
    let brands = 0;
    const entries = list.map((e) => {
      const named = labelledName(answer, e);
      const group = namesGroup(mentions, named.start, named.end);
      const name = read(answer.slice(named.start, named.end));
      if (group) groups++;
      else if (name.brand) brands++;
      return { name, brand: !group && name.brand };
    });
    if (!groups && brands * 2 <= entries.length) continue;
    for (const { name, brand } of entries) {
      if (!name.key || seen.has(name.key)) continue;
      seen.add(name.key);
      position++;
      if (brand) found.set(name.key, { name: name.name, position });
    }
  }
  const fenced = fencedRanges(answer);
  for (const m of answer.matchAll(INLINE_NAME)) {
    const start = m.index;
    const end = start + m[0].length;
    if (entryStarts.has(start) || fenced.some(([a, b]) => start >= a && start < b)) continue;
    const name = read(m[2] ?? m[3]!);
    if (!name.brand || !name.key || seen.has(name.key) || proseEmphasis(name.name)) continue;
    if (namesGroup(mentions, start, end)) continue;
    seen.add(name.key);
    found.set(name.key, { name: name.name, position: ++position });
  }
  return [...found.values()];
}
