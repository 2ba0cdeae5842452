/**
 * The mode that really ran, read from the chat call the page sent, never
 * assumed from the job: the 2026 body's `option.need_deep_think` (the flag
 * xln3/platform-v2 found the page signs into its request) and
 * `option.need_web_search`; the samantha body's `completion_option
 * .use_deep_think` / `use_web_search`. A body without a flag falls back to
 * the stream's own evidence: the deep-think root block, sources shown.
 */
import type { Mode } from '../../../../services/shared/platforms.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function flag(body: Obj, name2026: string, nameOld: string): boolean | undefined {
  const option = isObj(body.option) ? body.option : {};
  const old = isObj(body.completion_option) ? body.completion_option : {};
  const v = option[name2026] ?? old[nameOld];
  if (v === undefined || v === null) return undefined;
  return v === true || v === 1 || v === '1';
}

export interface StreamEvidence {
  deepThink: boolean;
  sources: boolean;
}

/** The mode the chat call asked for, from its body alone; undefined when it names no flags. */
export function askedMode(requestBody: string | undefined): Mode | undefined {
  let body: Obj;
  try {
    const parsed: unknown = JSON.parse(requestBody ?? '');
    if (!isObj(parsed)) return undefined;
    body = parsed;
  } catch {
    return undefined;
  }
  const reasoning = flag(body, 'need_deep_think', 'use_deep_think');
  const search = flag(body, 'need_web_search', 'use_web_search');
  if (reasoning === undefined || search === undefined) return undefined;
  if (reasoning) return search ? 'reasoning_search' : 'reasoning';
  return search ? 'search' : 'standard';
}

export function effectiveMode(requestBody: string | undefined, seen: StreamEvidence): Mode {
  let body: Obj = {};
  try {
    const parsed: unknown = JSON.parse(requestBody ?? '');
    if (isObj(parsed)) body = parsed;
  } catch {
    // No readable body: the stream's evidence decides.
  }
  const reasoning = flag(body, 'need_deep_think', 'use_deep_think') ?? seen.deepThink;
  const search = flag(body, 'need_web_search', 'use_web_search') ?? seen.sources;
  if (reasoning && search) return 'reasoning_search';
  if (reasoning) return 'reasoning';
  return search ? 'search' : 'standard';
}
