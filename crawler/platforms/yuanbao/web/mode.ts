/**
 * What ran and what was asked. The effective mode comes from the stream:
 * thinking frames mean 深度思考 ran, a search doc list (from the stream or
 * the conversation's detail) means 联网搜索 ran, so a silent fallback (a
 * quota that runs out) shows as the mode that really ran. The model inside
 * Yuanbao (混元 Hy3 or DeepSeek) is the operator's choice per mode
 * (`YUANBAO_WEB_MODELS`, e.g. `reasoning=deepseek`); any name but DeepSeek
 * keeps the site's default, Hunyuan. Pure.
 */
import type { Mode } from '../../../../services/shared/platforms.js';
import type { PlatformSettings } from '../../types.js';

export function modeOf(think: boolean, search: boolean): Mode {
  if (think) return search ? 'reasoning_search' : 'reasoning';
  return search ? 'search' : 'standard';
}

export function effectiveMode(ran: { thinking: boolean; search: boolean }): Mode {
  return modeOf(ran.thinking, ran.search);
}

/**
 * The mode the chat call asked for, from its body alone: `chatModelId`
 * names thinking (`hunyuan_t1`, `deep_seek`), `supportFunctions` the search;
 * undefined when the body names no model.
 */
export function askedMode(requestBody: string | undefined): Mode | undefined {
  try {
    const body = JSON.parse(requestBody ?? '') as {
      chatModelId?: unknown;
      supportFunctions?: unknown;
    };
    if (typeof body.chatModelId !== 'string') return undefined;
    const think = body.chatModelId === 'hunyuan_t1' || body.chatModelId === 'deep_seek';
    const search =
      Array.isArray(body.supportFunctions) &&
      body.supportFunctions.includes('supportInternetSearch');
    return modeOf(think, search);
  } catch {
    return undefined;
  }
}

/** Whether the operator asked for DeepSeek inside Yuanbao for this mode. */
export function wantsDeepseek(settings: Pick<PlatformSettings, 'models'>, mode: Mode): boolean {
  return /deep.?seek/i.test(settings.models?.[mode] ?? '');
}
