/**
 * What ran and what was asked. The effective mode comes from the stream's
 * last snapshot: `think` items mean 深度思考 ran, a search item
 * (`tool_result` / `quote_result`) means 联网搜索 ran, so a silent fallback
 * shows as the mode that really ran. The chat call's body says what the page
 * asked (xiaoY233/GLM-Free-API): `meta_data.chat_mode: "zero"` is deep
 * thinking, `meta_data.is_networking` the search. Pure.
 */
import type { Mode } from '../../../../services/shared/platforms.js';
import { modeOf } from '../../common/ran-mode.js';

export function effectiveMode(ran: { thinking: boolean; search: boolean }): Mode {
  return modeOf(ran.thinking, ran.search);
}

/** The mode the chat call asked for, from its body alone; undefined when it has no `meta_data`. */
export function askedMode(requestBody: string | undefined): Mode | undefined {
  try {
    const body = JSON.parse(requestBody ?? '') as { meta_data?: unknown };
    const meta = body.meta_data;
    if (typeof meta !== 'object' || meta === null) return undefined;
    const m = meta as { chat_mode?: unknown; is_networking?: unknown };
    return modeOf(m.chat_mode === 'zero', m.is_networking === true);
  } catch {
    return undefined;
  }
}
