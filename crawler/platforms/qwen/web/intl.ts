/**
 * chat.qwen.ai's frames (`POST /api/v2/chat/completions?chat_id=…`), in
 * both public formats. Each frame is one JSON object; the answer's are
 * OpenAI-style `choices[0].delta` objects whose `phase` says what they hold
 * and whose `status` is `typing` or `finished`.
 *
 * `qwen-2026` (a 2026-09 capture and a client's upstream-contract notes in
 * the public code index): the stream opens with `{"response.created":
 * {chat_id, parent_id, response_id}}`; a search is `phase: web_search`,
 * first `function_call {name: "web_search", arguments}` in JSON pieces, then
 * `status: finished` with `extra.web_search_info` (the sources); thinking is
 * `phase: thinking_summary` with empty content and the summary as a snapshot
 * in `extra.summary_title` / `extra.summary_thought`, re-sent whole each
 * time (the parser keeps the last, never concatenates); the answer is
 * `phase: answer`, ended by its `status: finished` delta.
 *
 * `qwen-2025` (several 2025 clients and their tests): reasoning streamed as
 * content with `phase: think`, the sources cumulative in
 * `extra.web_search_info` (on a delta named `web_search`), the answer
 * `phase: answer`, then `data: [DONE]`.
 *
 * Citations are `[[N]]`, N the source's place in the list (a public client's
 * tests). The snapshot's inner shape (`{content: [...]}` or a string) and
 * the refusal as an error frame with DashScope's `data_inspection_failed`
 * are **[inferred]**. Pure.
 */
import { unrecognisedFormat } from '../../../web/signals.js';
import { textField } from '../../common/frame-content.js';
import { SITE, siteError } from './envelope.js';
import { isObj, sourcesOf, str } from './sources.js';
import { FORMATS, type QwenState } from './state.js';

type Obj = Record<string, unknown>;

/** A snapshot's text: a string, a list of strings, or `{content: …}` holding either. */
function snapshotText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.filter((x) => typeof x === 'string').join('\n');
  if (isObj(v)) return snapshotText(v.content);
  return '';
}

/** Keys of a delta that are its own bookkeeping, not text. */
const DELTA_KEYS = ['role', 'phase', 'status', 'name', 'function_id', 'id'];

/** Whether a frame is chat.qwen.ai's (the parser's first guess for a JSON frame). */
export const isIntlFrame = (f: Obj): boolean =>
  'response.created' in f || Array.isArray(f.choices) || isObj(f.error);

export function applyIntl(s: QwenState, f: Obj): void {
  s.format ??= FORMATS.intl2025;
  if (isObj(f['response.created'])) {
    s.recognise(FORMATS.intl2026);
    return;
  }
  if (isObj(f.error)) {
    const err = siteError(str(f.error.code), str(f.error.details) || str(f.error.message));
    // A refusal ends the answer with the site's words; any other error is the outcome it names.
    if (err.message.startsWith(`${SITE} refused to answer`)) {
      s.refusal = str(f.error.details) || str(f.error.code);
      s.finished = true;
      return;
    }
    throw err;
  }
  const choice: unknown = Array.isArray(f.choices) ? f.choices[0] : undefined;
  const delta = isObj(choice) ? choice.delta : undefined;
  if (!isObj(delta)) {
    if (f.choices !== undefined && !Array.isArray(f.choices))
      throw unrecognisedFormat(SITE, `choices that are not a list: ${JSON.stringify(f.choices)}`);
    const field = textField(f, ['usage']);
    if (field) s.unplaced.add(`a frame without a delta, with text in "${field}"`);
    else s.ignored.add('a frame without a delta (usage, bookkeeping)');
    return;
  }
  applyDelta(s, delta);
}

function applyDelta(s: QwenState, d: Obj): void {
  const phase = str(d.phase);
  const extra = isObj(d.extra) ? d.extra : {};
  if (Array.isArray(extra.web_search_info)) s.sources = sourcesOf(extra.web_search_info);
  if (d.name === 'web_search') return;
  switch (phase) {
    case 'think':
      if (s.format !== FORMATS.intl2026) s.recognise(FORMATS.intl2025);
      if (typeof d.content === 'string') s.thinking += d.content;
      else contentless(s, d, 'a think delta');
      return;
    case 'thinking_summary': {
      s.recognise(FORMATS.intl2026);
      const thought = snapshotText(extra.summary_thought);
      if (thought) s.thinking = thought;
      return;
    }
    case 'web_search':
      if (isObj(d.function_call)) s.recognise(FORMATS.intl2026);
      return;
    case 'answer':
    case '': {
      if (typeof d.content === 'string') s.text += d.content;
      else contentless(s, d, `an ${phase || 'unphased'} delta`);
      if (phase === 'answer' && d.status === 'finished') s.finished = true;
      return;
    }
    default: {
      const field = textField(d, DELTA_KEYS);
      if (field) s.unplaced.add(`phase "${phase}" with text in "${field}"`);
      else s.ignored.add(`phase "${phase}" without content`);
    }
  }
}

/** A known delta without its content field: text under another name is unplaced, else nothing. */
function contentless(s: QwenState, d: Obj, what: string): void {
  const field = textField(d, DELTA_KEYS);
  if (field) s.unplaced.add(`${what} with text in "${field}"`);
  else s.ignored.add(`${what} without content`);
}
