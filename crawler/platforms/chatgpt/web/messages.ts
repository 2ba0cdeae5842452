/**
 * The answer in the messages of one ChatGPT stream, whichever encoding
 * carried them (stream.ts). A stream holds several messages, each an
 * envelope `{message: {id, author: {role, name}, content, metadata,
 * recipient, status}}`:
 * - the user's echo (`author.role: "user"`), never the answer;
 * - the reasoning: `content.content_type: "thoughts"` with
 *   `content.thoughts[] {summary, content}`, then a `reasoning_recap`
 *   ("Thought for 6s");
 * - the search: a call to `web.run` / `web` (an assistant message whose
 *   `recipient` is the tool) and the tool's reply, whose
 *   `metadata.search_result_groups[].entries[] {url, title, snippet,
 *   attribution, ref_id {turn_index, ref_type, ref_index}}` are the sources
 *   retrieved;
 * - the answer: the assistant's `text` message to `all`, its text at
 *   `/message/content/parts/0`, its citations private-use runs
 *   (`\ue200cite\ue202turn0search3\ue201`, several refs apart by `\ue202`)
 *   that `metadata.content_references[] {matched_text, items[] {url, title,
 *   refs}, fallback_items}` resolve; older builds cite `【3†source】` with
 *   `metadata.citations[] {start_ix, end_ix, metadata {url, title}}`.
 * Sources: xtekky/gpt4free `OpenaiChat.py` and 2026 captures
 * (../shared/web-channel.md); that a `【k†source】` mark counts its
 * `metadata.citations` in order where no start index matches is
 * **[inferred]**. Every citation becomes `[n]`, n the cited source's place
 * in the sources list, as every driver writes it; a mark naming no known
 * source is dropped, as the page drops it. Pure.
 */
import type { RawSearchResult } from '../../common/raw-answer.js';
import { textField } from '../../common/frame-content.js';
import { isObj } from './delta.js';

type Obj = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const at = (o: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), o);

/** A retrieved source, with the ref its citations name (`turn0search3`) when it has one. */
interface Source extends RawSearchResult {
  ref?: string;
}

export interface Read {
  text: string;
  thinking: string;
  sources: RawSearchResult[];
  /** A search ran: a search call, its tool reply, or sources on the answer. */
  searched: boolean;
  /** The model that answered, as the answer's metadata names it. */
  model: string;
  ignored: string[];
  unplaced: string[];
}

/** Content types that carry nothing for the answer (pictures, code, the call to a tool). */
const QUIET_CONTENT = new Set([
  'code',
  'execution_output',
  'model_editable_context',
  'tether_quote',
]);
const SEARCH_TOOLS = /^(web|web\.run|web\.search|browser|search)$/;
const CITE_RUN = /\ue200cite((?:\ue202[^\ue200-\ue202]+)+)\ue201/g;
const OLD_MARK = /【(\d+)(?::(\d+))?†[^】]*】/g;

const refKey = (r: unknown): string | undefined => {
  if (!isObj(r) || typeof r.ref_type !== 'string') return undefined;
  return `turn${Number(r.turn_index ?? 0)}${r.ref_type}${Number(r.ref_index ?? 0)}`;
};

function sourceOf(v: unknown): Source | undefined {
  if (!isObj(v) || !/^https?:\/\//.test(str(v.url))) return undefined;
  const s: Source = { title: str(v.title), url: str(v.url) };
  const site = str(v.attribution) || str(at(v, 'metadata', 'attribution'));
  if (site) s.site = site;
  const ref = refKey(v.ref_id);
  if (ref) s.ref = ref;
  return s;
}

class Sources {
  readonly all: Source[] = [];
  add(s: Source | undefined): void {
    if (!s) return;
    const same = this.all.find((o) => o.url === s.url);
    if (!same) this.all.push(s);
    else if (s.ref && !same.ref) same.ref = s.ref;
  }
  /** The 1-based place of a url, added at the end when the list lacks it. */
  placeOf(s: Source | undefined): number | undefined {
    if (!s) return undefined;
    this.add(s);
    return this.all.findIndex((o) => o.url === s.url) + 1;
  }
  placeOfRef(ref: string): number | undefined {
    const i = this.all.findIndex((o) => o.ref === ref);
    return i >= 0 ? i + 1 : undefined;
  }
}

const isSearchTool = (m: Obj) =>
  SEARCH_TOOLS.test(str(at(m, 'author', 'name'))) || SEARCH_TOOLS.test(str(m.recipient));

/** The sources a message lists: search result groups, or the older `_cite_metadata` list. */
function groupsOf(m: Obj): unknown[] {
  return [
    ...list(at(m, 'metadata', 'search_result_groups')).flatMap((g) =>
      isObj(g) && Array.isArray(g.entries) ? g.entries : [g],
    ),
    ...citeList(m),
  ];
}

const citeList = (m: Obj): unknown[] => list(at(m, 'metadata', '_cite_metadata', 'metadata_list'));

/** The private-use citation runs of the answer as `[n]`. */
function citeRuns(text: string, refs: unknown[], sources: Sources): string {
  const byMatch = new Map<string, Obj>();
  for (const r of refs) if (isObj(r) && str(r.matched_text)) byMatch.set(str(r.matched_text), r);
  return text.replace(CITE_RUN, (run, ids: string) => {
    const found = byMatch.get(run);
    const places = found
      ? [...list(found.items), ...list(found.fallback_items)].map((i) =>
          sources.placeOf(sourceOf(i)),
        )
      : ids
          .split('\ue202')
          .filter(Boolean)
          .map((id) => sources.placeOfRef(id));
    return [...new Set(places.filter((n): n is number => n !== undefined))]
      .map((n) => `[${n}]`)
      .join('');
  });
}

/**
 * The older `【k†source】` marks as `[n]`: the answer's `metadata.citations`
 * entry that starts where the mark does, else entry k of the browser's
 * `_cite_metadata` list.
 */
function citeOldMarks(
  text: string,
  citations: unknown[],
  listed: unknown[],
  sources: Sources,
): string {
  return text.replace(OLD_MARK, (_m, k: string, _b, offset: number) => {
    const byStart = citations.find((c) => isObj(c) && c.start_ix === offset);
    const cited = byStart ? at(byStart, 'metadata') : listed[Number(k)];
    const n = sources.placeOf(sourceOf(cited));
    return n === undefined ? '' : `[${n}]`;
  });
}

/** The answer the stream's messages hold, read whole (the last answer message wins). */
export function readMessages(messages: readonly Obj[]): Read {
  const out: Read = {
    text: '',
    thinking: '',
    sources: [],
    searched: false,
    model: '',
    ignored: [],
    unplaced: [],
  };
  const sources = new Sources();
  const thoughts: string[] = [];
  let answer: Obj | undefined;
  const listed: unknown[] = [];
  for (const m of messages) {
    listed.push(...citeList(m));
    const role = str(at(m, 'author', 'role'));
    const type = str(at(m, 'content', 'content_type'));
    for (const s of groupsOf(m)) sources.add(sourceOf(s));
    if (groupsOf(m).length > 0 || (role === 'tool' && isSearchTool(m))) out.searched = true;
    if (role === 'user' || role === 'system') continue;
    if (role === 'assistant' && isSearchTool(m)) {
      out.searched = true;
      continue;
    }
    if (type === 'thoughts') {
      for (const t of list(at(m, 'content', 'thoughts')))
        if (isObj(t)) thoughts.push([str(t.summary), str(t.content)].filter(Boolean).join('\n'));
    } else if (type === 'reasoning_recap') {
      out.ignored.push('a reasoning_recap message');
    } else if (role === 'assistant' && type === 'text' && (m.recipient ?? 'all') === 'all') {
      answer = m;
    } else if (role === 'tool' || QUIET_CONTENT.has(type)) {
      out.ignored.push(`a ${role || 'role-less'} ${type || 'content-less'} message`);
    } else {
      const content = at(m, 'content');
      const field = isObj(content) ? textField(content, ['content_type']) : undefined;
      if (field) out.unplaced.push(`a ${type || 'content-less'} message with text in "${field}"`);
      else out.ignored.push(`a ${role || 'role-less'} ${type || 'content-less'} message`);
    }
  }
  if (answer) {
    const parts = list(at(answer, 'content', 'parts'));
    const raw = parts.map(str).join('');
    if (parts.length > 0 && typeof parts[0] !== 'string')
      out.unplaced.push('an answer whose first part is not text');
    const content = at(answer, 'content');
    const elsewhere = isObj(content) ? textField(content, ['content_type', 'parts']) : undefined;
    if (elsewhere) out.unplaced.push(`an answer with text in "${elsewhere}"`);
    for (const s of groupsOf(answer)) sources.add(sourceOf(s));
    const refs = list(at(answer, 'metadata', 'content_references'));
    for (const r of refs) if (isObj(r)) for (const i of list(r.items)) sources.add(sourceOf(i));
    if (refs.length > 0) out.searched = true;
    out.text = citeOldMarks(
      citeRuns(raw, refs, sources),
      list(at(answer, 'metadata', 'citations')),
      listed,
      sources,
    );
    out.model = str(at(answer, 'metadata', 'model_slug'));
  }
  out.thinking = thoughts.join('\n').trim();
  out.sources = sources.all.map(({ ref: _ref, ...s }, i) => ({ ...s, index: i + 1 }));
  return out;
}
