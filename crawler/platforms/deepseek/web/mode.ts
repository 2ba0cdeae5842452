/**
 * What really ran: DeepSeek's chat call names its mode in the request body
 * (`thinking_enabled`, `search_enabled`); the stream's opening snapshot
 * repeats both, and is the witness when the body could not be read. Pure.
 */
import type { Mode } from '../../../../services/shared/platforms.js';
import { unrecognisedFormat } from '../../../web/signals.js';
import { SITE, type DeepseekStream } from './stream.js';

function modeOf(think: boolean, search: boolean): Mode {
  if (think) return search ? 'reasoning_search' : 'reasoning';
  return search ? 'search' : 'standard';
}

/** The mode the chat call asked for, from its body alone; undefined when it names no flags. */
export function askedMode(requestBody: string | undefined): Mode | undefined {
  try {
    const body = JSON.parse(requestBody ?? '') as Record<string, unknown>;
    const { thinking_enabled: think, search_enabled: search } = body;
    return typeof think === 'boolean' && typeof search === 'boolean'
      ? modeOf(think, search)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The mode the page really asked for, from the captured request body. */
export function effectiveMode(requestBody: string | undefined, stream: DeepseekStream): Mode {
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(requestBody ?? '') as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  const flags =
    body && typeof body.thinking_enabled === 'boolean' && typeof body.search_enabled === 'boolean'
      ? body
      : stream.flags();
  if (typeof flags?.thinking_enabled !== 'boolean' || typeof flags.search_enabled !== 'boolean') {
    throw unrecognisedFormat(SITE, 'the chat call names no thinking_enabled / search_enabled');
  }
  return modeOf(flags.thinking_enabled, flags.search_enabled);
}
