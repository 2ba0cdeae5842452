/**
 * Test directives the sandbox reads from the prompt text (pure):
 * - `#fail:<kind>` with kind 429 | 500 | 503 | 401 | timeout | empty | login | refuse,
 *   optionally `x<N>` (`#fail:500x2`): fail only the first N attempts of that
 *   exact prompt + mode, then answer normally.
 * - `#latency:<ms>`: total answer time for this request.
 * - `#vary:<percent>`: the answer names its lead brand in about that share of
 *   the asks of that exact prompt + mode, drawn from a PRNG seeded by the ask's
 *   number (deterministic); the other asks name another brand in its place.
 *   What adaptive sampling of monitors is tested on.
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
  /** Percent (0–100) of asks that name the lead brand. */
  varyPercent?: number;
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
  const vary = /#vary:(\d+)/i.exec(prompt);
  if (vary) out.varyPercent = Math.min(100, Number(vary[1]));
  return out;
}
