/**
 * Test directives the sandbox reads from the prompt text (pure):
 * - `#fail:<kind>` with kind 429 | 500 | 503 | 401 | timeout | empty | login | refuse,
 *   optionally `x<N>` (`#fail:500x2`): fail only the first N attempts of that
 *   exact prompt + mode, then answer normally.
 * - `#latency:<ms>`: total answer time for this request.
 */
export const FAIL_KINDS = [
  '429',
  '500',
  '503',
  '401',
  'timeout',
  'empty',
  'login',
  'refuse',
] as const;
export type FailKind = (typeof FAIL_KINDS)[number];

export interface Directives {
  fail?: { kind: FailKind; times?: number };
  latencyMs?: number;
}

export function isFailKind(v: string): v is FailKind {
  return (FAIL_KINDS as readonly string[]).includes(v);
}

export function parseDirectives(prompt: string): Directives {
  const out: Directives = {};
  const fail = /#fail:([a-z0-9]+?)(?:x(\d+))?(?![a-z0-9])/i.exec(prompt);
  if (fail) {
    const kind = fail[1]!.toLowerCase();
    if (isFailKind(kind)) {
      out.fail = fail[2] === undefined ? { kind } : { kind, times: Number(fail[2]) };
    }
  }
  const latency = /#latency:(\d+)/i.exec(prompt);
  if (latency) out.latencyMs = Number(latency[1]);
  return out;
}
