/**
 * The older samantha format (`POST /samantha/chat/completion`): unnamed SSE
 * events whose data is `{event_type, event_id, event_data}`, `event_data`
 * itself a JSON string (a recorded stream of November 2025 in a public
 * monitor's tests, "doubao-samantha-20251121"; LLM-Red-Team doubao-free-api).
 * event_type 2001 carries a message whose `content` is JSON again:
 * content_type 2001 `{text}` deltas of the answer, 2002 `{suggest,
 * suggestions}` follow-ups; 2002 / 2010 are conversation and intention
 * metadata; 2003 ends the stream; 2005 is an error
 * `{code, message, error_detail{ext{decision}}}`.
 */
import { emptyRaw, type RawAnswer } from '../../common/raw-answer.js';
import { Collected } from './blocks.js';
import type { SiteError } from './site-errors.js';

export const MESSAGE = 2001;
export const META = 2002;
export const END = 2003;
export const ERROR = 2005;
export const INTENTION = 2010;
export const KNOWN_EVENT_TYPES: readonly number[] = [MESSAGE, META, END, ERROR, INTENTION];

const TEXT_CONTENT = 2001;
const SUGGEST_CONTENT = 2002;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function parseObj(text: string): Obj {
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : {};
  } catch {
    return {};
  }
}

export class SamanthaAnswer extends Collected {
  private readonly text: string[] = [];

  /** One event_type 2001 payload (already parsed from `event_data`). */
  message(data: Obj): void {
    const message = isObj(data.message) ? data.message : {};
    const content = parseObj(str(message.content));
    if (message.content_type === TEXT_CONTENT) {
      const piece = str(content.text);
      if (piece) this.text.push(piece);
    } else if (message.content_type === SUGGEST_CONTENT) {
      const list = Array.isArray(content.suggestions) ? content.suggestions : [content.suggest];
      for (const q of list) this.addFollowUp(str(q));
    }
  }

  raw(): RawAnswer {
    const raw = emptyRaw();
    raw.content = this.text.join('').trim();
    return this.fill(raw);
  }
}

/** The error of an event_type 2005 payload. */
export function samanthaError(data: Obj): SiteError {
  const detail = isObj(data.error_detail) ? data.error_detail : {};
  const ext = isObj(detail.ext) ? detail.ext : {};
  const message = [str(data.message), str(detail.message)].filter(Boolean).join(': ');
  const e: SiteError = { code: Number(data.code ?? detail.code ?? 0) || 0, message };
  const decision = str(ext.decision);
  if (decision) e.decision = decision;
  return e;
}

export { parseObj };
