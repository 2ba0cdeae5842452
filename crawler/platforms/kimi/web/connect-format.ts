/**
 * Kimi's 2025–2026 stream (`kimi-connect-1`): `POST /apiv2/kimi.gateway.chat.
 * v1.ChatService/Chat`, Connect streaming envelopes of JSON messages
 * [dugongyete-ui/ApiAi-Kimi src/lib/connect-rpc/{client,types}.ts; a
 * 2026-08 capture documented in a public gateway's "Kimi ConnectRPC wire
 * protocol"]. Each data message is one of:
 * - `{"heartbeat":{}}`: keep-alive;
 * - `{"op":"set"|"append","mask":…, chat|message|block: …}`: `mask` names the
 *   field path the op applies to (`chat`, `message`, `block.think.content`,
 *   `block.text.content`, `block.stage`, …);
 * - `{"done":{}}`: the answer is complete.
 * The end-of-stream envelope (flag 0x02) carries `{}` or
 * `{"error":{"code","message"}}`.
 *
 * Search results, in the order tried: the 2026 `block.tool` frames (a
 * `toolCallId` such as `web_search:1`, its `args`, then `contents[]
 * .searchResult {base {title, url, siteName, iconUrl, snippet}, refIndex}`),
 * mirrored to `message.refs.searchChunks` with the cited subset in
 * `usedSearchChunks` [web-channel.md "Kimi, 2026"; single, unnamed 2026
 * captures]; then this project's earlier reading, `block.search.results`
 * {url, title, siteName, icon} (**unverified**). Follow-ups
 * (`message.suggestions`) and the blocked-message status are **unverified**.
 *
 * Tolerance (common/frame-content.ts): a `chat.*` or `message.*` mask, or a
 * frame (with or without op and mask) that holds no text, carries no answer:
 * kept in the evidence and skipped (`ignored`). A frame without op and mask,
 * an unknown `block.*` mask, or a text or think op without its `content`
 * string (a renamed field) that holds text is answer content no known format
 * places: reported as not applied (`unplaced`) for the kit's witnesses.
 */
import { needsHuman, rateLimited, unrecognisedFormat } from '../../../web/signals.js';
import { textField } from '../../common/frame-content.js';
import { PlatformError } from '../../types.js';
import type { AnswerState } from './answer-state.js';
import { COMPRESSED, END_STREAM, type Envelope } from './connect-envelope.js';

export const CONNECT_FORMAT = 'kimi-connect-1';
const SITE = 'kimi';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Masks that only move the page's own bookkeeping along: nothing to extract. */
const QUIET_MASKS =
  /^(chat(\.[a-zA-Z.]+)?|message(\.(status|id|parentId|createTime|role))?|block\.(multiStage|stage)(\.[a-zA-Z.]+)?)$/;
/** Masks outside the blocks: unknown ones are bookkeeping, never answer content. */
const OUTSIDE_BLOCKS = /^(chat|message)(\.|$)/;

function parseJson(payload: Uint8Array): Obj {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    throw unrecognisedFormat(SITE, 'a Connect message that is not JSON');
  }
  if (!isObj(value)) throw unrecognisedFormat(SITE, 'a Connect message that is not an object');
  return value;
}

/** The PlatformError of an end-of-stream error (Connect codes, Kimi's own messages). */
export function connectError(code: string, message: string): PlatformError {
  const said = `${code}${message ? `: ${message}` : ''}`;
  switch (code) {
    case 'unauthenticated':
      return needsHuman(SITE, `session expired or invalid (${said})`);
    case 'permission_denied':
      return needsHuman(SITE, `verification challenge instead of an answer (${said})`);
    case 'resource_exhausted':
      return rateLimited(SITE, message || code);
    default:
      return new PlatformError(`kimi stream error (${said})`, 'failed', true);
  }
}

/** Applies one envelope to the state; throws a PlatformError for site errors and unknown frames. */
export function applyConnect(state: AnswerState, env: Envelope): void {
  if (env.flags & COMPRESSED) throw unrecognisedFormat(SITE, 'a compressed Connect message');
  const msg = parseJson(env.payload);
  if (env.flags & END_STREAM) {
    if (isObj(msg.error)) throw connectError(str(msg.error.code), str(msg.error.message));
    state.done = true;
    return;
  }
  if (env.flags !== 0) throw unrecognisedFormat(SITE, `Connect flags 0x${env.flags.toString(16)}`);
  if (isObj(msg.heartbeat) && Object.keys(msg).length === 1) return;
  if (isObj(msg.done)) {
    state.done = true;
    return;
  }
  const op = str(msg.op);
  const mask = str(msg.mask);
  const keys = Object.keys(msg).sort().join(',');
  if ((op !== 'set' && op !== 'append') || mask === '') {
    const field = textField(msg, ['op', 'mask']);
    if (field) return state.unplaced(`a frame with keys ${keys}, text in "${field}"`);
    return state.ignore(`a frame with keys ${keys}`);
  }
  applyOp(state, op, mask, msg);
}

/** A text or think block's `content`; text elsewhere in it is a renamed field, not applied. */
function content(state: AnswerState, block: Obj, kind: 'text' | 'think', mask: string): string {
  const inner = block[kind];
  if (isObj(inner) && typeof inner.content === 'string') return inner.content;
  const field = isObj(inner) ? textField(inner) : undefined;
  if (field) state.unplaced(`${mask} with text in "${kind}.${field}" instead of "content"`);
  return '';
}

function applyOp(state: AnswerState, op: 'set' | 'append', mask: string, msg: Obj): void {
  const block = isObj(msg.block) ? msg.block : {};
  const message = isObj(msg.message) ? msg.message : {};
  const id = str(block.id) || 'block';
  if (mask === 'block.text' || mask === 'block.text.content') {
    state.write(id, 'text', content(state, block, 'text', mask), op);
  } else if (mask === 'block.think' || mask === 'block.think.content') {
    state.write(id, 'think', content(state, block, 'think', mask), op);
  } else if (mask === 'block.tool' || mask.startsWith('block.tool.')) {
    const tool = isObj(block.tool) ? block.tool : {};
    const call = str(tool.toolCallId);
    for (const c of Array.isArray(tool.contents) ? tool.contents : []) {
      if (isObj(c)) addChunk(state, c.searchResult ?? c, call);
    }
  } else if (mask === 'message.refs' || mask.startsWith('message.refs.')) {
    const refs = isObj(message.refs) ? message.refs : {};
    for (const c of Array.isArray(refs.searchChunks) ? refs.searchChunks : []) addChunk(state, c);
    for (const c of Array.isArray(refs.usedSearchChunks) ? refs.usedSearchChunks : []) {
      const at = addChunk(state, c);
      if (at !== undefined) state.cite(at);
    }
  } else if (mask === 'block.search' || mask === 'block.search.results') {
    const results =
      isObj(block.search) && Array.isArray(block.search.results) ? block.search.results : [];
    for (const r of results.filter(isObj)) {
      state.addResult({
        title: str(r.title),
        url: str(r.url),
        site: str(r.siteName),
        icon: str(r.icon),
      });
    }
  } else if (mask === 'message.suggestions') {
    const items = Array.isArray(message.suggestions) ? message.suggestions : [];
    state.suggestions = items.map(str).filter((q) => q !== '');
  } else if (mask === 'message.status' && str(message.status) === 'MESSAGE_STATUS_BLOCKED') {
    state.refusal = str(message.notice) || 'the message was blocked';
  } else if (OUTSIDE_BLOCKS.test(mask) && !QUIET_MASKS.test(mask)) {
    state.ignore(`frame mask "${mask}"`);
  } else if (!QUIET_MASKS.test(mask)) {
    const field = textField(msg, ['op', 'mask']);
    if (field) state.unplaced(`frame mask "${mask}" with text in "${field}"`);
    else state.ignore(`frame mask "${mask}"`);
  }
}

/**
 * One 2026 search chunk (`{base {title, url, siteName, iconUrl}, refIndex}`,
 * or the `searchResult` around it): its reference number, under the tool call
 * that found it when known (the `web_search:N#k` citations name it so).
 */
function addChunk(state: AnswerState, chunk: unknown, call = ''): number | undefined {
  if (!isObj(chunk)) return undefined;
  const inner = isObj(chunk.searchResult) ? chunk.searchResult : chunk;
  const base = isObj(inner.base) ? inner.base : inner;
  const refIndex = inner.refIndex ?? chunk.refIndex;
  return state.addResult(
    {
      title: str(base.title),
      url: str(base.url),
      site: str(base.siteName),
      icon: str(base.iconUrl) || str(base.icon),
      ...(typeof refIndex === 'number' && Number.isInteger(refIndex) && refIndex > 0
        ? { index: refIndex }
        : {}),
    },
    call,
  );
}
