/**
 * What ran and what was asked. Search is Perplexity's product itself, so the
 * four modes map onto two of the page's controls:
 * - search: the Web source in the composer's sources menu (on: the answer
 *   searches the web; off: the page's plain answer, no web results);
 * - reasoning: the model picker, a reasoning model (its label says
 *   Thinking / Reasoning) against the site's default (Best).
 * standard = Web off + the default model; reasoning = Web off + a reasoning
 * model; search = Web on + the default; reasoning_search = Web on + a
 * reasoning model. The effective mode is what the stream proves: plan goal
 * steps mean the reasoning model thought, web results mean the web was
 * searched. The chat call's `params` say what the page asked: a
 * `model_preference` naming a thinking model, `sources` holding `web`
 * (older builds: `search_focus: "internet"`, `"writing"` without search).
 * Pure.
 */
import type { Mode } from '../../../../services/shared/platforms.js';
import { modeOf } from '../../common/ran-mode.js';

/** Model ids of the thinking models (gpt4free's list: `claude45sonnetthinking`, `o3`, `r1`, …). */
export const THINKING_MODEL = /thinking|reasoning|^r1\b|^o[134](?:mini|pro)?$/i;

export function effectiveMode(ran: { thinking: boolean; search: boolean }): Mode {
  return modeOf(ran.thinking, ran.search);
}

/** The mode the chat call asked for, from its body alone; undefined when it names no model. */
export function askedMode(requestBody: string | undefined): Mode | undefined {
  try {
    const body = JSON.parse(requestBody ?? '') as { params?: unknown };
    const p = body.params as
      { model_preference?: unknown; sources?: unknown; search_focus?: unknown } | undefined;
    if (typeof p !== 'object' || p === null || typeof p.model_preference !== 'string')
      return undefined;
    const search = Array.isArray(p.sources)
      ? p.sources.includes('web')
      : p.search_focus === 'internet';
    return modeOf(THINKING_MODEL.test(p.model_preference), search);
  } catch {
    return undefined;
  }
}
