/**
 * Kimi's older stream (`kimi-sse-legacy`), still served by older builds of
 * the page: `POST /api/chat/{chatId}/completion/stream` answering with
 * Server-Sent Events whose data is `{"event": …}` [LLM-Red-Team/kimi-free-api
 * src/api/controllers/chat.ts, receiveStream / createTransStream]:
 * - `cmpl` {text}: an answer delta;
 * - `search_plus` {msg: {type}}: search progress; `type: "get_res"` carries
 *   one result {title, url} (and, **unverified**, `site_name` / `icon`);
 * - `req`, `resp`, `rename`, `ping`, `length`: bookkeeping;
 * - `k1` {text}: the reasoning of the k1 / k1.5 thinking model (the issue-22
 *   independent replica, built from public captures; **single source**);
 * - `all_done`: the end marker;
 * - `error`: the answer stopped; with an `error_type` (`auth.token.invalid`,
 *   `chat.user_stream_pushing`, …) it is a session or use problem, without one
 *   the content was stopped as non-compliant (kimi-free-api shows
 *   "内容由于不合规被停止生成").
 * An event of another name, or data without an event name, that holds no
 * text is kept in the evidence and skipped; one that holds text is reported
 * as not applied (common/frame-content.ts), for the kit's witnesses.
 */
import type { SseEvent } from '../../common/sse.js';
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited, unrecognisedFormat } from '../../../web/signals.js';
import type { AnswerState } from './answer-state.js';
import { textField } from '../../common/frame-content.js';

export const LEGACY_FORMAT = 'kimi-sse-legacy';
const SITE = 'kimi';
const QUIET = new Set(['req', 'resp', 'rename', 'ping', 'length']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The PlatformError of a legacy `error_type` (also used for the legacy JSON error bodies). */
export function legacyError(errorType: string, message: string): PlatformError {
  const said = `${errorType}${message ? `: ${message}` : ''}`;
  if (/^auth\./.test(errorType)) return needsHuman(SITE, `session expired or invalid (${said})`);
  if (/limit|exceed|frequen|quota/i.test(errorType)) return rateLimited(SITE, message || errorType);
  if (/captcha|verify|risk/i.test(errorType))
    return needsHuman(SITE, `verification challenge instead of an answer (${said})`);
  return new PlatformError(`kimi stream error (${said})`, 'failed', true);
}

export function applyLegacy(state: AnswerState, event: SseEvent): void {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    throw unrecognisedFormat(SITE, 'a legacy event that is not JSON');
  }
  if (!isObj(data)) throw unrecognisedFormat(SITE, 'a legacy event that is not an object');
  if (typeof data.event !== 'string') {
    const field = textField(data);
    if (field) return state.unplaced(`a legacy event without a name, text in "${field}"`);
    return state.ignore('a legacy event without a name');
  }
  const name = data.event;
  if (QUIET.has(name)) return;
  switch (name) {
    case 'cmpl':
      state.write('answer', 'text', str(data.text), 'append');
      return;
    case 'k1':
      state.write('k1', 'think', str(data.text), 'append');
      return;
    case 'search_plus': {
      const msg = isObj(data.msg) ? data.msg : {};
      if (msg.type === 'get_res') {
        state.addResult({
          title: str(msg.title),
          url: str(msg.url),
          site: str(msg.site_name),
          icon: str(msg.icon),
        });
      }
      return;
    }
    case 'all_done':
      state.done = true;
      return;
    case 'error': {
      const errorType = str(data.error_type);
      if (errorType) throw legacyError(errorType, str(data.message));
      state.refusal = str(data.message) || '内容由于不合规被停止生成';
      state.done = true;
      return;
    }
    default:
      // An unknown event with answer text is not applied, and said so; one without is bookkeeping.
      const field = textField(data, ['event']);
      if (field) state.unplaced(`legacy event "${name}" with text in "${field}"`);
      else state.ignore(`legacy event "${name}"`);
  }
}
