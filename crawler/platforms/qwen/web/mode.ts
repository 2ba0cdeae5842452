/**
 * What ran and what was asked. The effective mode comes from the stream:
 * reasoning text (a `think` phase, a `thinking_summary` snapshot) means
 * 深度思考 ran, a list of sources means 联网搜索 ran. The request says what
 * the page asked: chat.qwen.ai's message carries `chat_type` (`search` or
 * `t2t`) and `feature_config.thinking_enabled` (public clients, 2025–2026);
 * the domestic site's body `params.searchType` / `params.deepThink`
 * **[inferred]**. Pure.
 */
import type { Mode } from '../../../../services/shared/platforms.js';
import { modeOf } from '../../common/ran-mode.js';
import { isObj } from './sources.js';

export function effectiveMode(ran: { thinking: boolean; search: boolean }): Mode {
  return modeOf(ran.thinking, ran.search);
}

type Obj = Record<string, unknown>;

/** The user's message of an international body (the last), or the body itself. */
function messageOf(body: Obj): Obj {
  const list = Array.isArray(body.messages) ? body.messages.filter(isObj) : [];
  return list.at(-1) ?? body;
}

function intlAsked(body: Obj): Mode | undefined {
  const m = messageOf(body);
  const type = m.chat_type ?? body.chat_type;
  const config = isObj(m.feature_config) ? m.feature_config : body.feature_config;
  if (typeof type !== 'string' || !isObj(config)) return undefined;
  return modeOf(config.thinking_enabled === true, type === 'search');
}

function domesticAsked(body: Obj): Mode | undefined {
  const p = body.params;
  if (!isObj(p) || typeof p.deepThink !== 'boolean') return undefined;
  return modeOf(p.deepThink, p.searchType === 'web');
}

/** The mode the chat call asked for, from its body alone; undefined when it does not say. */
export function askedMode(requestBody: string | undefined): Mode | undefined {
  try {
    const body = JSON.parse(requestBody ?? '') as unknown;
    if (!isObj(body)) return undefined;
    return Array.isArray(body.contents) ? domesticAsked(body) : intlAsked(body);
  } catch {
    return undefined;
  }
}
