/**
 * What Perplexity's answer blocks hold, read from their current values
 * (stream.ts keeps each block's value, whole or patched). Pure.
 *
 * Block fields (gpt4free `Perplexity.py`, pv-udpv/pplx-sdk
 * `docs/SSE_STREAMING.md`, ../shared/web-channel.md):
 * - `markdown_block` {progress, chunks[], answer}: the answer, its `chunks`
 *   growing by patches while it streams, `answer` the whole text where the
 *   site sends it; citations `[1]` (or `[web:1]` **[inferred from newer
 *   captures]**) name the web results in their order;
 * - `web_result_block` / `sources_mode_block` {web_results[]}: the sources
 *   (`intended_usage` `web_results` / `sources_answer_mode`), each
 *   {name, url, snippet, meta_data};
 * - `plan_block` {progress, goals[{id, description, final}]}: the plan or
 *   goal steps, the reasoning a thinking model shows.
 * Other fields (media, knowledge cards, widgets) carry no answer here: an
 * unknown one holding text is reported as not placed.
 */
import type { RawSearchResult } from '../../common/raw-answer.js';
import { textField } from '../../common/frame-content.js';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export const ANSWER_FIELD = 'markdown_block';
export const PLAN_FIELD = 'plan_block';
/** Fields whose value lists the web results. */
export const SOURCE_FIELDS = new Set(['web_result_block', 'sources_mode_block']);
/** Fields that carry nothing for the answer text (pictures, widgets, follow-ups). */
export const QUIET_FIELDS = new Set([
  'media_block',
  'image_mode_block',
  'video_mode_block',
  'knowledge_card_block',
  'inline_entity_block',
  'pending_followups_block',
  'answer_tabs_block',
  'prompt_block',
]);
/** The keys of a markdown block this reader knows. */
const MARKDOWN_KEYS = ['answer', 'chunks', 'progress', 'chunk_starting_offset'];

/** The answer text of a markdown block's value: `answer` when sent, else its chunks joined. */
export function markdownText(v: unknown): string {
  if (!isObj(v)) return '';
  const answer = str(v.answer);
  if (answer) return answer;
  return list(v.chunks)
    .map((c) => str(c))
    .join('');
}

/** Where a markdown block holds text under a key it does not know (a renamed `chunks`). */
export function strayMarkdown(v: unknown): string | undefined {
  return isObj(v) ? textField(v, MARKDOWN_KEYS) : undefined;
}

/** A web result as a source; undefined when it names no web page. */
export function webResultOf(v: unknown): RawSearchResult | undefined {
  if (!isObj(v) || !/^https?:\/\//.test(str(v.url))) return undefined;
  const r: RawSearchResult = { title: str(v.name) || str(v.title), url: str(v.url) };
  const meta = isObj(v.meta_data) ? v.meta_data : {};
  const site = str(meta.domain_name);
  if (site) r.site = site;
  const icon = str(meta.favicon) || str(v.favicon);
  if (icon) r.icon = icon;
  return r;
}

export function webResultsOf(v: unknown): RawSearchResult[] | undefined {
  if (!isObj(v) || !Array.isArray(v.web_results)) return undefined;
  return v.web_results.flatMap((r) => webResultOf(r) ?? []);
}

/** The plan's goal steps as the reasoning, one a line. */
export function planText(v: unknown): string {
  if (!isObj(v)) return '';
  return list(v.goals)
    .map((g) => (isObj(g) ? str(g.description) : str(g)).trim())
    .filter(Boolean)
    .join('\n');
}

/** The text with `[web:N]` marks as `[N]`, the style every site's answer uses. */
export function citeMarks(text: string): string {
  return text.replace(/\[web:(\d+)\]/g, '[$1]');
}
