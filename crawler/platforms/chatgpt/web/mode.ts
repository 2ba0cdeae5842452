/**
 * What ran and what was asked. The effective mode comes from the stream:
 * a `thoughts` message means the reasoning ran, a search call, its tool
 * reply or cited sources mean the search ran, so a silent fallback shows as
 * the mode that really ran. The chat call's body says what the page asked:
 * `system_hints` holds `reason` for thinking and `search` for the search
 * (../shared/web-channel.md "ChatGPT, 2025–2026"). Pure.
 */
import type { Mode } from '../../../../services/shared/platforms.js';
import { modeOf } from '../../common/ran-mode.js';

export function effectiveMode(ran: { thinking: boolean; search: boolean }): Mode {
  return modeOf(ran.thinking, ran.search);
}

/** The mode the chat call asked for, from its body alone; undefined when it has no hints list. */
export function askedMode(requestBody: string | undefined): Mode | undefined {
  try {
    const body = JSON.parse(requestBody ?? '') as { system_hints?: unknown };
    if (!Array.isArray(body.system_hints)) return undefined;
    return modeOf(body.system_hints.includes('reason'), body.system_hints.includes('search'));
  } catch {
    return undefined;
  }
}
