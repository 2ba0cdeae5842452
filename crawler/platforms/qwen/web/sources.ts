/**
 * A Qwen web-search source as a reference. The international site lists
 * them in `extra.web_search_info` [{url, title, snippet, hostname,
 * hostlogo, date}] (public 2025–2026 clients and their tests); the
 * domestic site's `referenceLink` content holds `links` [{title, url,
 * source}] **[inferred]**. Both are numbered by their place in the list,
 * which the answer's `[[N]]` markers name. Pure.
 */
import type { RawSearchResult } from '../../common/raw-answer.js';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One listed source; undefined when it names no web page. */
export function sourceOf(v: unknown, position: number): RawSearchResult | undefined {
  if (!isObj(v) || !/^https?:\/\//.test(str(v.url))) return undefined;
  const r: RawSearchResult = { index: position, title: str(v.title), url: str(v.url) };
  const site = str(v.hostname) || str(v.source) || str(v.site_name);
  if (site) r.site = site;
  const icon = str(v.hostlogo) || str(v.icon);
  if (icon) r.icon = icon;
  return r;
}

/** A whole list of sources (each list the site sends replaces the last: it is cumulative). */
export const sourcesOf = (list: readonly unknown[]): RawSearchResult[] =>
  list.flatMap((v, i) => sourceOf(v, i + 1) ?? []);

/** The answer's citation markers `[[N]]` as the `[N]` every answer carries. */
export const plainMarkers = (text: string): string => text.replace(/\[\[(\d{1,3})\]\]/g, '[$1]');
