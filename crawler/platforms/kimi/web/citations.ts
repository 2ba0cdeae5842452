/**
 * Kimi's inline citation marks, in the order tried:
 * - `[^3^]`: cites search result 3 (stored messages, and the streams before
 *   2026) [web-channel.md];
 * - private-use characters around `cite` and one or more `web_search:N#k`
 *   (a 2026-06 capture [web-channel.md "Kimi, 2026"], e.g.
 *   `\uE200cite\uE202web_search:1#3\uE201`): the k-th result (1-based) of
 *   search call `web_search:N`. Which private-use code points open, separate
 *   and close the mark is not documented, so any private-use character does;
 *   that k counts within its call is inferred from the call being named.
 * The private-use marks become `[^n^]` (n the result's reference number), so
 * every answer shows one style; a mark naming no known result is dropped. Pure.
 */

const CARET = /\[\^(\d{1,3})\^\]/g;
const PUA = '[\\uE000-\\uF8FF]';
const PUA_MARK = new RegExp(`${PUA}cite((?:${PUA}[A-Za-z_]+:\\d+#\\d+)+)${PUA}`, 'g');
const PUA_REF = /([A-Za-z_]+:\d+)#(\d+)/g;

/** The reference number of result k of a search call, if known. */
export type ResolveRef = (call: string, k: number) => number | undefined;

export function citationsOf(text: string, resolve: ResolveRef): { text: string; cited: number[] } {
  const rewritten = text.replace(PUA_MARK, (_, refs: string) =>
    [...refs.matchAll(PUA_REF)]
      .map((m) => resolve(m[1]!, Number(m[2])))
      .filter((n): n is number => n !== undefined)
      .map((n) => `[^${n}^]`)
      .join(''),
  );
  const cited: number[] = [];
  for (const m of rewritten.matchAll(CARET)) {
    const n = Number(m[1]);
    if (n > 0 && !cited.includes(n)) cited.push(n);
  }
  return { text: rewritten, cited };
}
