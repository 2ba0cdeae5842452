/**
 * The mode that really ran, read from the chat call the page sent (never
 * assumed from what we asked): the Connect request's `tools` holding
 * `TOOL_TYPE_SEARCH` and `options.thinking`, or the older build's
 * `use_search` and its thinking model, named by `kimiplus_id`
 * [LLM-Red-Team/kimi-free-api chat.ts: `crm40ee9e5jvhsn7ptcg` for k1] or by
 * `model: "k1.5"` (the issue-22 independent replica; **single source**).
 * The driver prefers the stream's own evidence (ran-mode.ts); this is the
 * witness when no stream was read to its end.
 */
import type { Mode } from '../../../../services/shared/platforms.js';
import { unrecognisedFormat } from '../../../web/signals.js';

export const K1_KIMIPLUS_ID = 'crm40ee9e5jvhsn7ptcg';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function modeOf(thinking: boolean, search: boolean): Mode {
  if (thinking) return search ? 'reasoning_search' : 'reasoning';
  return search ? 'search' : 'standard';
}

/**
 * The bytes of a request body as CDP reports it. Chromium hands a body that
 * is not valid UTF-8 (a Connect envelope's length prefix rarely is) over as
 * Latin-1 text, one character per byte; a text body comes as Unicode.
 */
function bytesOf(body: string): Uint8Array {
  return /[^\u0000-\u00ff]/.test(body) ? Buffer.from(body, 'utf8') : Buffer.from(body, 'latin1');
}

/** The JSON of the chat request: plain JSON, or the one Connect envelope around it. */
export function requestJson(body: string): Obj | undefined {
  let bytes = bytesOf(body);
  if (bytes.length >= 5 && bytes[0] === 0) {
    const length = new DataView(bytes.buffer, bytes.byteOffset, 5).getUint32(1);
    if (length === bytes.length - 5) bytes = bytes.subarray(5);
  }
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return isObj(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function effectiveMode(requestBody: string | undefined): Mode {
  const req = requestBody ? requestJson(requestBody) : undefined;
  if (!req) throw unrecognisedFormat('kimi', 'the chat request body could not be read');
  if ('use_search' in req || 'kimiplus_id' in req) {
    const k1 = req.kimiplus_id === K1_KIMIPLUS_ID || /^k1(\.|$)/i.test(String(req.model ?? ''));
    return modeOf(k1, req.use_search === true);
  }
  const tools = Array.isArray(req.tools) ? req.tools : [];
  const search = tools.some((t) => isObj(t) && t.type === 'TOOL_TYPE_SEARCH');
  const thinking = isObj(req.options) && req.options.thinking === true;
  return modeOf(thinking, search);
}
