/**
 * One Gemini payload (the inner JSON of a `wrb.fr` envelope) read BY SHAPE:
 * nested arrays without names, whose indexes public projects disagree on
 * from one year to the next (HanaokaYuzu/Gemini-API reads the text at
 * `candidate[1][0]`, the thoughts at `candidate[37][0][0]`, the citation
 * groups at `candidate[43]`; Bard-era clients read the sources at
 * `candidate[2]`). So nothing here trusts an index; each field is what its
 * shape is, and the path where it was found is recorded:
 * - the candidate: the first list whose first item is a response-candidate
 *   id (`rc_…`); the conversation: a list whose first item is `c_…`;
 * - the answer text: the candidate's first `[string]` (a list whose only
 *   string is its first item);
 * - the thinking: a `[[string]]` (a list whose first item is a list whose
 *   first item is a string);
 * - citation groups (2026): a list of `[[" [cite: 1, 2]"], [entry, …]]`,
 *   the marker's numbers paired in order with the entries;
 * - flat sources (Bard era): a list of entries, each holding a source;
 * - a source, inside an entry: the list holding a URL followed by its
 *   title, the URL before it (when there is one) its icon
 *   (`entry[3][0] = [favicon, url, title]` in utils/citation.py).
 * A keyed object in the candidate is no known shape: one holding text is
 * reported as not placed (the page still shows it), else ignored. Pure.
 */
import { hostOf, type RawSearchResult } from '../../common/raw-answer.js';

const MAX_DEPTH = 6;
const URL_RE = /^https?:\/\//;
const CITE_RE = /\[cite:\s*([\d,\s]+)\]/;
/** Ids and tokens the payload carries beside its text (`rc_…`, `c_…`, hex). */
const ID_RE = /^(?:[a-z]{1,4}_)?[0-9a-z_-]{6,}$/i;

type Path = (string | number)[];
const at = (p: Path) => p.map((k) => `[${k}]`).join('') || '(root)';

/** Where each field of one payload was found, and what it said. */
export interface Located {
  /** The candidate, by its path; undefined when the payload holds none. */
  candidateAt?: string;
  conversationId: string;
  text?: string;
  textAt?: string;
  thinking?: string;
  thinkingAt?: string;
  /** Sources by their citation number (cite groups) or their place (flat). */
  sources: RawSearchResult[];
  sourcesAt?: string;
  /** `cite` when the sources came as citation groups, `flat` as a plain list. */
  sourceShape?: 'cite' | 'flat';
  ignored: string[];
  unplaced: string[];
}

/** Whether a string reads as text a person would see (not an id, a URL or a code). */
export function textLike(s: string): boolean {
  const t = s.trim();
  return t !== '' && !URL_RE.test(t) && !ID_RE.test(t) && /[\p{L}]/u.test(t);
}

/** Whether any string inside (arrays, objects, JSON held in strings) reads as text. */
export function holdsText(v: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (typeof v === 'string') {
    if (/^\s*[[{]/.test(v)) {
      try {
        return holdsText(JSON.parse(v), depth + 1);
      } catch {
        /* a plain string */
      }
    }
    return textLike(v);
  }
  if (Array.isArray(v)) return v.some((x) => holdsText(x, depth + 1));
  if (typeof v === 'object' && v !== null)
    return Object.values(v).some((x) => holdsText(x, depth + 1));
  return false;
}

function find(
  v: unknown,
  test: (a: unknown[]) => boolean,
  path: Path = [],
  depth = 0,
): { value: unknown[]; path: Path } | undefined {
  if (!Array.isArray(v) || depth > MAX_DEPTH) return undefined;
  if (test(v)) return { value: v, path };
  for (let i = 0; i < v.length; i++) {
    const hit = find(v[i], test, [...path, i], depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isList = Array.isArray as (v: unknown) => v is unknown[];

/** `[string]`: a list whose first item is its only string. */
const textShape = (v: unknown): v is [string] =>
  isList(v) && isStr(v[0]) && !URL_RE.test(v[0]) && v.slice(1).every((x) => !isStr(x));
/** `[[string]]`. */
const thinkingShape = (v: unknown): v is [[string]] =>
  isList(v) && isList(v[0]) && isStr(v[0][0]) && !CITE_RE.test(v[0][0]) && !URL_RE.test(v[0][0]);
const citeGroup = (g: unknown): g is [[string], unknown[]] =>
  isList(g) && isList(g[0]) && isStr(g[0][0]) && CITE_RE.test(g[0][0]) && isList(g[1]);

/** The source an entry holds: the list with a URL followed by its title. */
export function sourceIn(entry: unknown): RawSearchResult | undefined {
  const urlThenTitle = (a: unknown[], i: number) => {
    const [x, next] = [a[i], a[i + 1]];
    return isStr(x) && URL_RE.test(x) && isStr(next) && !URL_RE.test(next);
  };
  const hit = find(entry, (a) => a.some((_x, i) => urlThenTitle(a, i)));
  if (!hit) return undefined;
  const a = hit.value;
  const i = a.findIndex((_x, j) => urlThenTitle(a, j));
  const url = a[i] as string;
  const before = a[i - 1];
  const icon = isStr(before) && URL_RE.test(before) ? before : '';
  return { title: a[i + 1] as string, url, site: hostOf(url), icon };
}

/** The sources of citation groups, by citation number (the first entry for a number wins). */
function citedSources(groups: [[string], unknown[]][]): RawSearchResult[] {
  const byNumber = new Map<number, RawSearchResult>();
  for (const [[marker], entries] of groups) {
    const numbers = (CITE_RE.exec(marker)?.[1] ?? '').match(/\d+/g) ?? [];
    numbers.forEach((n, i) => {
      const s = sourceIn(entries[i]);
      if (s && !byNumber.has(Number(n))) byNumber.set(Number(n), { ...s, index: Number(n) });
    });
  }
  return [...byNumber.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
}

/** Reads one payload (already parsed from its JSON string). */
export function locate(payload: unknown): Located {
  const out: Located = { conversationId: '', sources: [], ignored: [], unplaced: [] };
  const conversation = find(payload, (a) => isStr(a[0]) && /^c_[0-9a-z]+$/i.test(a[0]));
  if (conversation) out.conversationId = conversation.value[0] as string;
  const candidate = find(payload, (a) => isStr(a[0]) && /^rc_[0-9a-z]+$/i.test(a[0]));
  if (!candidate) return out;
  out.candidateAt = at(candidate.path);
  const c = candidate.value;
  for (let i = 1; i < c.length; i++) {
    const child = c[i];
    const where = at([...candidate.path, i]);
    if (out.text === undefined && textShape(child)) {
      out.text = child[0];
      out.textAt = `${where}[0]`;
    } else if (isList(child) && child.length > 0 && child.every(citeGroup)) {
      out.sources = citedSources(child);
      out.sourcesAt = where;
      out.sourceShape = 'cite';
    } else if (out.thinking === undefined && thinkingShape(child)) {
      out.thinking = child[0][0];
      out.thinkingAt = `${where}[0][0]`;
    } else if (
      isList(child) &&
      child.length > 0 &&
      !out.sourceShape &&
      child.every((e) => isList(e) && sourceIn(e) !== undefined)
    ) {
      out.sources = child.map((e, n) => ({ ...sourceIn(e)!, index: n + 1 }));
      out.sourcesAt = where;
      out.sourceShape = 'flat';
    } else if (typeof child === 'object' && child !== null && !isList(child)) {
      if (holdsText(child)) out.unplaced.push(`an object with text at ${where}`);
      else out.ignored.push(`an object at ${where}`);
    }
  }
  return out;
}

/** `[cite: 1, 2]` as `[1][2]`, the numbers naming the sources' citation numbers. */
export function citeMarks(text: string): string {
  return text.replace(new RegExp(CITE_RE.source, 'g'), (_m, list: string) =>
    (list.match(/\d+/g) ?? []).map((n) => `[${n}]`).join(''),
  );
}
