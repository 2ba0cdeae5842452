/**
 * The answer in DeepSeek's response fragments, per format version. Pure.
 *
 * 2026 (xln3/platform-v2 deepseek_adapter.py and its unit tests): THINK →
 * TOOL_SEARCH (`queries`, `results` {url, title, snippet, site_name,
 * site_icon, query_indexes}) → TOOL_OPEN (one `result` card per page read) →
 * RESPONSE. The answer cites with `[reference:N]`, N being the id of the
 * TOOL_OPEN fragment that read the page; the RESPONSE fragment lists the same
 * ids in `references` ({id, type: "TOOL_OPEN"}).
 *
 * 2025 (daijinma/geo_marketing deepseek.go; the search-result shape with
 * cite_index, site_name and site_icon seen in published 2025 captures): a
 * SEARCH fragment whose `results` carry their own `cite_index`, and
 * `[citation:N]` markers naming that index.
 *
 * Markers become the `[n]` of the reference they cite, so the answer keeps
 * its citation positions in the one marker style every driver writes.
 */
import { emptyRaw, type RawAnswer, type RawSearchResult } from '../../common/raw-answer.js';
import { urlIdentity } from '../../common/url-identity.js';
import { isObj } from './patch.js';

export type Version = '2026' | '2025';

export interface Fragment {
  id?: unknown;
  type: string;
  content?: unknown;
  results?: unknown;
  result?: unknown;
  references?: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function card(v: unknown): RawSearchResult | undefined {
  if (!isObj(v) || !/^https?:\/\//.test(str(v.url))) return undefined;
  const r: RawSearchResult = { title: str(v.title), url: str(v.url) };
  if (str(v.site_name)) r.site = str(v.site_name);
  if (str(v.site_icon)) r.icon = str(v.site_icon);
  return r;
}

const texts = (fragments: Fragment[], type: string) =>
  fragments.filter((f) => f.type === type).map((f) => str(f.content));

export function extract(fragments: Fragment[], version: Version): RawAnswer {
  const raw = emptyRaw();
  raw.reasoningContent = texts(fragments, 'THINK')
    .map((t) => t.trim())
    .filter(Boolean)
    .join('\n\n');
  const content = texts(fragments, 'RESPONSE').join('');
  if (version === '2025') {
    for (const f of fragments.filter((x) => x.type === 'SEARCH')) {
      for (const item of Array.isArray(f.results) ? f.results : []) {
        const r = card(item);
        const at = isObj(item) ? Number(item.cite_index) : NaN;
        if (r) raw.searchResults.push(Number.isInteger(at) && at > 0 ? { ...r, index: at } : r);
      }
    }
    raw.content = content.replace(/\[citation:(\d+)\]/g, '[$1]');
    return raw;
  }

  const indexOf = new Map<string, number>();
  const list = (r: RawSearchResult): number => {
    const id = urlIdentity(r.url);
    const known = indexOf.get(id);
    if (known !== undefined) return known;
    const index = raw.searchResults.length + 1;
    raw.searchResults.push({ ...r, index });
    indexOf.set(id, index);
    return index;
  };
  for (const f of fragments.filter((x) => x.type === 'TOOL_SEARCH')) {
    for (const item of Array.isArray(f.results) ? f.results : []) {
      const r = card(item);
      if (r) list(r);
    }
  }
  // A page read is one the panel shows too, even when the search did not list it.
  const opened = new Map<string, number>();
  for (const f of fragments.filter((x) => x.type === 'TOOL_OPEN')) {
    const r = card(f.result);
    if (r) opened.set(String(f.id), list(r));
  }
  for (const f of fragments.filter((x) => x.type === 'RESPONSE')) {
    for (const ref of Array.isArray(f.references) ? f.references : []) {
      const direct = card(ref);
      const at = direct ? list(direct) : isObj(ref) ? opened.get(String(ref.id)) : undefined;
      if (at !== undefined && !raw.citedIndices.includes(at)) raw.citedIndices.push(at);
    }
  }
  raw.content = content.replace(/\[reference:(\d+)\]/g, (_, id: string) => {
    const at = opened.get(id);
    return at === undefined ? '' : `[${at}]`;
  });
  return raw;
}
