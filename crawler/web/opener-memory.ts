/**
 * Which popup opener each control was last found behind, per kept page, by
 * its place among the page's openers (`page.locator(OPENERS).nth(index)`):
 * the page's next sub task opens that one first instead of every opener
 * before it, each a click to open and one to close (a search switch in the
 * menu after a model picker's menu, as on two of the kit's sites).
 *
 * A memory only orders the scan, it never decides it: an opener that no
 * longer holds the control is forgotten and the other openers are tried at
 * once, in page order, as without a memory (controls.ts `findBehind`).
 */
import type { Page } from 'playwright';

const byPage = new WeakMap<Page, Map<string, number>>();

/** The opener index `key` was last found behind on `page`, if any. */
export function recallOpener(page: Page, key: string): number | undefined {
  return byPage.get(page)?.get(key);
}

export function rememberOpener(page: Page, key: string, index: number): void {
  const mine = byPage.get(page) ?? new Map<string, number>();
  byPage.set(page, mine);
  mine.set(key, index);
}

export function forgetOpener(page: Page, key: string): void {
  byPage.get(page)?.delete(key);
}

/** The openers in page order, the remembered one (when it is among them) moved first. */
export function rememberedFirst<T extends { index: number }>(
  near: readonly T[],
  remembered: number | undefined,
): T[] {
  const at = near.findIndex((o) => o.index === remembered);
  return at > 0 ? [near[at]!, ...near.slice(0, at), ...near.slice(at + 1)] : [...near];
}
