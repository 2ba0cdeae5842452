/**
 * One ChatGLM snapshot read whole: the frame's `parts[].content[]` as the
 * answer stands at that moment. ChatGLM does not send deltas: every frame
 * repeats the whole answer so far, so the answer is always the LAST
 * snapshot, never a sum of them (a later snapshot may be shorter, or replace
 * a part, when the site rewrites what it showed). Pure.
 *
 * Items by `type` (LLM-Red-Team/glm-free-api and xiaoY233/GLM-Free-API
 * `src/api/controllers/chat.ts`):
 * - `text` with `text`: the answer; citations as `【turn0search1】`
 *   (2025, naming a search result's `match_key`) or `【3†来源】` (2024);
 * - `think` with `think`: the chain of thought (2025, `chat_mode: "zero"`);
 * - `tool_result`: the search results, in the part's
 *   `meta_data.tool_result_extra.search_results` [{title, url, match_key}] (2025);
 * - `quote_result`: the sources, in the part's `meta_data.metadata_list`
 *   [{title, url}] (2024 and 2025).
 * Other item types (`image`, `code`, `execution_output`, a progress item)
 * carry no answer here: kept in the evidence; one that holds text under a
 * text-like key is reported as not placed (common/frame-content.ts).
 */
import type { RawSearchResult } from '../../common/raw-answer.js';
import { textField } from '../../common/frame-content.js';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A search result or quoted source, with the key its citations use (2025) when it has one. */
export interface Source extends RawSearchResult {
  key?: string;
}

export interface Snapshot {
  /** The answer's text items, each part's joined, parts apart by a line break. */
  text: string;
  thinking: string;
  /** Sources in the order the snapshot lists them, numbered from 1. */
  sources: Source[];
  /** Whether any part carried a search item (`tool_result` / `quote_result`), sources or not. */
  searched: boolean;
  /** Whether the parts carry the 2025 `logic_id`. */
  logicIds: boolean;
  /** Items of kinds this reader does not apply: `ignored` carry no text, `unplaced` do. */
  ignored: string[];
  unplaced: string[];
}

/** Item types that carry nothing for the answer (pictures, code runs, progress). */
const QUIET_ITEMS = new Set(['image', 'code', 'execution_output', 'browser_result', 'status']);

function sourceOf(v: unknown, key?: string): Source | undefined {
  if (!isObj(v) || !/^https?:\/\//.test(str(v.url))) return undefined;
  const s: Source = { title: str(v.title), url: str(v.url) };
  const site = str(v.site_name) || str(v.website) || str(v.source);
  if (site) s.site = site;
  const icon = str(v.icon) || str(v.favicon);
  if (icon) s.icon = icon;
  if (key) s.key = key;
  return s;
}

/** An item this reader does not apply: unplaced when it holds text, else only ignored. */
function unread(snap: Snapshot, item: Obj, what: string): void {
  const field = textField(item, ['type', 'status']);
  if (field) snap.unplaced.push(`${what} with text in "${field}"`);
  else snap.ignored.push(`${what} without content`);
}

/** The snapshot one frame's `parts` hold. */
export function readSnapshot(parts: readonly unknown[]): Snapshot {
  const snap: Snapshot = {
    text: '',
    thinking: '',
    sources: [],
    searched: false,
    logicIds: false,
    ignored: [],
    unplaced: [],
  };
  const texts: string[] = [];
  const thoughts: string[] = [];
  const addSource = (s: Source | undefined) => {
    if (s && !snap.sources.some((o) => o.url === s.url && o.key === s.key)) snap.sources.push(s);
  };
  for (const part of parts) {
    if (!isObj(part)) continue;
    if (part.logic_id !== undefined) snap.logicIds = true;
    const meta = isObj(part.meta_data) ? part.meta_data : {};
    let partText = '';
    for (const item of list(part.content)) {
      if (!isObj(item)) continue;
      const type = str(item.type);
      if (type === 'text') {
        if (typeof item.text === 'string') partText += item.text;
        else unread(snap, item, 'a text item without `text`');
      } else if (type === 'think') {
        thoughts.push(str(item.think) || str(item.content));
      } else if (type === 'tool_result') {
        snap.searched = true;
        const extra = isObj(meta.tool_result_extra) ? meta.tool_result_extra : {};
        for (const r of list(extra.search_results))
          addSource(sourceOf(r, isObj(r) ? str(r.match_key) || undefined : undefined));
      } else if (type === 'quote_result') {
        snap.searched = true;
        for (const r of list(meta.metadata_list)) addSource(sourceOf(r));
      } else if (QUIET_ITEMS.has(type)) {
        snap.ignored.push(`a ${type} item`);
      } else {
        unread(snap, item, `an item of type "${type}"`);
      }
    }
    if (partText) texts.push(partText);
  }
  snap.text = texts.join('\n');
  snap.thinking = thoughts.join('\n');
  return snap;
}

/**
 * The text with its citation marks as `[n]`, n the cited source's place in
 * the list (1-based): `【turn0search2】` by the source's `match_key`,
 * `【2†来源】` by its position (0-based, as the marks count **[inferred]**).
 * A mark naming no listed source is dropped, as the site's page drops it.
 */
export function citeMarks(text: string, sources: readonly Source[]): string {
  return text
    .replace(/【(turn\d+[a-z]+\d+)】/gi, (_m, key: string) => {
      const at = sources.findIndex((s) => s.key === key);
      return at >= 0 ? `[${at + 1}]` : '';
    })
    .replace(/【(\d+)†(?:来源|源|source)】/g, (_m, n: string) =>
      Number(n) < sources.length ? `[${Number(n) + 1}]` : '',
    );
}
