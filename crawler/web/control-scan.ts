/**
 * What a person sees around the composer, read in the page in one round trip
 * each (plain string scripts, so no loader rewrites them):
 * - a toggle without an accessible name, named by the text beside it: the
 *   text of the smallest container around it that holds exactly one
 *   interactive element (Kimi's 联网搜索 row around a bare `role=switch`);
 * - the popup openers near the composer (`aria-haspopup`): a picker, a menu
 *   of mode toggles, a tools popover; near means inside the smallest
 *   ancestor of the composer, at most OPENER_LEVELS up, that holds one.
 * Each answer is an index into `document.querySelectorAll` of the selector
 * it was asked with, which `page.locator(selector).nth(i)` finds again.
 */
import type { Locator, Page } from 'playwright';
import { COMPOSERS } from './recognise.js';

/** Everything a person can operate; a row holding two of them names neither. */
const INTERACTIVE = [
  'button',
  'a[href]',
  'input:not([type="hidden"])',
  'select',
  'textarea',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
  ...[
    'button',
    'link',
    'switch',
    'checkbox',
    'radio',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'combobox',
  ].map((r) => `[role="${r}"]`),
].join(', ');

/** The widgets a mode can be as a toggle: switch, checkbox, (pressed) button, menu item, tab. */
export const TOGGLE_ROLES = ['switch', 'checkbox', 'button', 'menuitemcheckbox', 'tab'] as const;
const TOGGLES = [
  'input[type="checkbox"]',
  'button:not([role])',
  ...TOGGLE_ROLES.map((r) => `[role="${r}"]`),
].join(', ');

/** Controls that open a menu, listbox or popover. */
export const OPENERS = '[aria-haspopup]:not([aria-haspopup="false"])';
/** How far above the composer its own controls may sit. */
const OPENER_LEVELS = 5;

const SHOWN = `(el) => {
  if (!el || el.closest('[hidden]')) return false;
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return false;
  const s = getComputedStyle(el);
  return s.visibility !== 'hidden' && s.display !== 'none';
}`;

const namelessScript = (names: RegExp) => `(() => {
  const NAMES = new RegExp(${JSON.stringify(names.source)}, 'i');
  const shown = ${SHOWN};
  const text = (el) => (el.innerText || el.textContent || '').trim();
  const byIds = (ids) => ids.split(/\\s+/).map((id) => document.getElementById(id)).filter(Boolean).map(text).join(' ');
  const ownName = (el) =>
    (el.getAttribute('aria-label') || '').trim() ||
    byIds(el.getAttribute('aria-labelledby') || '') ||
    Array.from(el.labels || []).map(text).join(' ').trim() ||
    (el.tagName === 'INPUT' ? '' : text(el)) ||
    (el.getAttribute('title') || '').trim();
  const rowText = (el) => {
    for (let c = el.parentElement; c && c !== document.body; c = c.parentElement) {
      if (c.querySelectorAll(${JSON.stringify(INTERACTIVE)}).length > 1) return '';
      const t = text(c);
      if (t) return t;
    }
    return '';
  };
  const all = Array.from(document.querySelectorAll(${JSON.stringify(TOGGLES)}));
  return all.findIndex((el) => shown(el) && !el.hasAttribute('aria-haspopup') && !ownName(el) && NAMES.test(rowText(el)));
})()`;

/** A function: COMPOSERS comes from a module that imports this one's importer. */
const openersScript = () => `(() => {
  const shown = ${SHOWN};
  const all = Array.from(document.querySelectorAll(${JSON.stringify(OPENERS)}));
  const composer = Array.from(document.querySelectorAll(${JSON.stringify(COMPOSERS)})).find(shown);
  if (!composer) return [];
  let around = composer.parentElement;
  for (let level = 0; around && level < ${OPENER_LEVELS}; level++, around = around.parentElement) {
    const near = all.map((el, i) => (shown(el) && around.contains(el) ? i : -1)).filter((i) => i >= 0);
    if (near.length > 0) return near;
  }
  return [];
})()`;

/** The first shown toggle without a name of its own whose row text matches `names`. */
export async function namelessToggle(page: Page, names: RegExp): Promise<Locator | undefined> {
  const i = (await page.evaluate(namelessScript(names)).catch(() => -1)) as number;
  return i >= 0 ? page.locator(TOGGLES).nth(i) : undefined;
}

/** A popup opener and its place among the page's openers (`page.locator(OPENERS).nth(index)`). */
export interface Opener {
  index: number;
  at: Locator;
}

/** The shown popup openers near the composer, in page order. */
export async function openersNearComposer(page: Page): Promise<Opener[]> {
  const found = (await page.evaluate(openersScript()).catch(() => [])) as number[];
  return found.map((index) => ({ index, at: page.locator(OPENERS).nth(index) }));
}
