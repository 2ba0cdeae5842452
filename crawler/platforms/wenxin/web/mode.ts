/**
 * What ran and what was asked. The effective mode comes from the stream:
 * thought frames with content mean the thinking model ran, a citation list
 * means a search ran, so a silent fallback shows as the mode that ran. What
 * the page asked is its request body: `model` names the ERNIE version
 * (`EB45T` 文心4.5 Turbo, `EB5` 文心5.0, `X1T` the thinking 文心X1 Turbo) and
 * `search` (1 or 0) the web search **[both field names inferred]**. Pure.
 */
import type { Mode } from '../../../../services/shared/platforms.js';
import { modeOf } from '../../common/ran-mode.js';

/** The thinking models' ids (文心X1 and later X-series). */
export const THINKING_MODEL = /^X\d/i;

export function effectiveMode(ran: { thinking: boolean; search: boolean }): Mode {
  return modeOf(ran.thinking, ran.search);
}

/** The mode the chat call asked for, from its body alone; undefined when the body names no model. */
export function askedMode(requestBody: string | undefined): Mode | undefined {
  try {
    const body = JSON.parse(requestBody ?? '') as { model?: unknown; search?: unknown };
    if (typeof body.model !== 'string') return undefined;
    return modeOf(THINKING_MODEL.test(body.model), body.search === 1 || body.search === true);
  } catch {
    return undefined;
  }
}
