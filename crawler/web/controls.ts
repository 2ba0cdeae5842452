/**
 * A site's controls found the way a person finds them: by what they are (an
 * accessible role) and what they say, in every language the site uses, with
 * a few ordered fallbacks (a test id, a class) for a control that names
 * itself badly. A site that redraws a switch as a checkbox, or drops a
 * control's name, still shows the person the same word.
 *
 * A control's name is its accessible name; else its label (aria-labelledby,
 * `<label for>`, a wrapping label); else the text of the smallest container
 * around it that holds exactly one interactive element (control-scan.ts).
 * Two widgets carry a mode:
 * - a toggle (switch, checkbox, pressed button, menu item checkbox, tab): its
 *   state is the checkbox's checked state, `aria-pressed`, `aria-checked`,
 *   `aria-selected`, `aria-expanded` or an active / selected / checked class;
 *   a tab is cleared by choosing the first tab beside it without the name;
 * - a picker: the control near the composer that opens a menu or listbox,
 *   whatever it shows (快速 / 专家, or a model name such as `Kimi`). It is
 *   on when its shown label holds an on-word; it is set by choosing the
 *   first item whose name holds an on-word, cleared by choosing the first
 *   item without one. The site's `off` words only let a picker be known
 *   without opening it; any other picker near the composer is opened to see
 *   whether its menu offers an on-word.
 * A control may sit behind a popup opener near the composer (a tools
 * popover, a menu of mode toggles): it is looked for there when the page
 * does not show it, both to set it and to clear it; on a kept page the
 * opener it was last found behind is opened first (opener-memory.ts). Every
 * popup the kit opens is closed again before `setControl` returns.
 *
 * A picker's shown choice is also the page's label for the model that answers
 * (`shownChoice`), read the same way and never a failure when absent.
 *
 * Every lookup has a short deadline, never Playwright's 30 s. A control
 * already in the requested state is not touched; a control that should be
 * off and is nowhere needs nothing, so a mode that needs no control never
 * fails on one. A control that is needed and cannot be found, or does not
 * take the state, is driver drift (signals.ts): the sub task fails with the
 * control's name, the page's DOM goes to the evidence, the account stays fine.
 */
import type { Locator, Page } from 'playwright';
import type { Evidence } from '../platforms/types.js';
import { namelessToggle, OPENERS, openersNearComposer, TOGGLE_ROLES } from './control-scan.js';
import { forgetOpener, recallOpener, rememberedFirst, rememberOpener } from './opener-memory.js';
import { controlMissing, controlUnchanged } from './signals.js';

/** How long one lookup or state change may take. */
export const CONTROL_MS = 2_500;
/**
 * How long a click on a control already found may take: longer than a lookup,
 * since a busy page (its own proof-of-work, signatures) may be slow to take it.
 */
export const CLICK_MS = 10_000;
/** How long an opened popup may take to show its content. */
const POPUP_MS = 1_000;
/** How much of the page's DOM a missing control leaves in the evidence. */
const DOM_EVIDENCE_CHARS = 200_000;
const POLL_MS = 100;

export interface Control {
  site: string;
  /** The control's name in signals: `deep-thinking`. */
  label: string;
  /** As a toggle: its names in each language (accessible name, label or the text beside it). */
  toggle?: { names: readonly string[] };
  /**
   * As a picker: words of the choice that means on, in each language; `off`:
   * words it shows when off, so that it is known without being opened.
   */
  picker?: { on: readonly string[]; off?: readonly string[] };
  /** Toggles found by test id or class, tried in order after the named ones. */
  fallbacks?: readonly string[];
}

export interface Found {
  kind: 'toggle' | 'picker';
  at: Locator;
  /** The popup opener it sits behind, when the page does not show it by itself. */
  opener?: Locator;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Any of the names, as a case-insensitive pattern. */
export const anyOf = (names: readonly string[]) => new RegExp(names.map(escape).join('|'), 'i');

/** A control's key in the per-page memories (pickers below, opener-memory.ts). */
const keyOf = (c: Control) => `${c.site} ${c.label}`;

const ON_CLASS = /(^|[\s_-])(active|selected|checked)($|[\s_-])/i;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The state a toggle shows: checked, its first ARIA state attribute, else an active class. */
async function toggleState(at: Locator): Promise<boolean> {
  const s = await at.evaluate(
    (el) => {
      const input = el as unknown as { tagName: string; type?: string; checked?: boolean };
      if (input.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio'))
        return { checked: input.checked === true, aria: null, cls: '' };
      const aria = ['aria-pressed', 'aria-checked', 'aria-selected', 'aria-expanded']
        .map((a) => el.getAttribute(a))
        .find((v) => v === 'true' || v === 'mixed' || v === 'false');
      return { checked: null, aria: aria ?? null, cls: el.getAttribute('class') ?? '' };
    },
    undefined,
    { timeout: CONTROL_MS },
  );
  if (s.checked !== null) return s.checked;
  if (s.aria !== null) return s.aria !== 'false';
  return ON_CLASS.test(s.cls);
}

/** The words a picker may show, on or off. */
const pickerWords = (c: Control) => anyOf([...c.picker!.on, ...(c.picker!.off ?? [])]);

/** What a locator can say: named toggles, a picker showing its words, the fallbacks. */
function candidates(page: Page, c: Control): Found[] {
  const out: Found[] = [];
  // A picker's button also bears a name; as a toggle it would be misread.
  const plain = page.locator(':not([aria-haspopup])');
  if (c.toggle)
    for (const role of TOGGLE_ROLES)
      out.push({
        kind: 'toggle',
        at: page.getByRole(role, { name: anyOf(c.toggle.names) }).and(plain),
      });
  if (c.picker)
    out.push({ kind: 'picker', at: page.locator(OPENERS).filter({ hasText: pickerWords(c) }) });
  for (const selector of c.fallbacks ?? [])
    out.push({ kind: 'toggle', at: page.locator(selector) });
  return out;
}

/** The opener `at` finds now, as the nth opener of the page. */
async function pinned(page: Page, at: Locator): Promise<Locator> {
  const i = await at.evaluate(
    (el, openers) => Array.from(el.ownerDocument.querySelectorAll(openers)).indexOf(el),
    OPENERS,
    { timeout: CONTROL_MS },
  );
  return i >= 0 ? page.locator(OPENERS).nth(i) : at;
}

/** The first candidate the page shows (waiting at most `waitMs`), else a nameless toggle by its row. */
async function findShown(page: Page, c: Control, waitMs: number): Promise<Found | undefined> {
  const all = candidates(page, c);
  // One look for any of them first: a control the page lacks costs one round trip, not one per role.
  const any =
    all.length > 0
      ? all
          .map((f) => f.at)
          .reduce((a, b) => a.or(b))
          .filter({ visible: true })
          .first()
      : undefined;
  if (any && waitMs > 0)
    await any.waitFor({ state: 'visible', timeout: waitMs }).catch(() => undefined);
  if (any && (await any.isVisible().catch(() => false))) {
    // Which one: every candidate asked at once (one round trip's wait, not one per role and
    // fallback), the first in order kept.
    const firsts = all.map((f) => f.at.filter({ visible: true }).first());
    const shown = await Promise.all(firsts.map((at) => at.isVisible().catch(() => false)));
    const i = shown.indexOf(true);
    const f = all[i];
    // A picker found by the words it shows is held by its place: its label changes as it is set.
    if (f)
      return {
        kind: f.kind,
        at: f.kind === 'picker' ? await pinned(page, firsts[i]!) : firsts[i]!,
      };
  }
  if (!c.toggle) return undefined;
  const row = await namelessToggle(page, anyOf(c.toggle.names));
  return row && { kind: 'toggle', at: row };
}

/** The choices an open menu or listbox offers. */
const choices = (page: Page) =>
  page
    .getByRole('menuitem')
    .or(page.getByRole('menuitemradio'))
    .or(page.getByRole('option'))
    .filter({ visible: true });

const isOpen = async (opener: Locator) =>
  (await opener.getAttribute('aria-expanded', { timeout: CONTROL_MS }).catch(() => null)) ===
  'true';

/** Opens the popup behind `opener` (if closed) and waits briefly for it to show. */
async function openPopup(page: Page, opener: Locator): Promise<void> {
  if (await isOpen(opener)) return;
  await opener.click({ timeout: CLICK_MS });
  const popup = page
    .locator('[role="menu"], [role="listbox"], [role="dialog"], [role="tooltip"]')
    .filter({ visible: true })
    .first();
  await popup.waitFor({ state: 'visible', timeout: POPUP_MS }).catch(() => undefined);
}

/** Closes the popup behind `opener` when it is still open. */
export async function closePopup(opener: Locator | undefined): Promise<void> {
  if (opener && (await isOpen(opener))) await opener.click({ timeout: CLICK_MS }).catch(() => {});
}

/**
 * The control behind one of the popup openers near the composer: a toggle
 * the popup shows, or the opener itself as the picker whose menu offers an
 * on-word. The opener the control was last found behind on this page is
 * tried first; one that no longer holds it is forgotten, and the others
 * follow at once in page order. Every popup opened and found empty is
 * closed again.
 */
async function findBehind(page: Page, c: Control): Promise<Found | undefined> {
  const key = keyOf(c);
  const remembered = recallOpener(page, key);
  for (const { index, at: opener } of rememberedFirst(
    await openersNearComposer(page),
    remembered,
  )) {
    const found = await behindOne(page, c, opener);
    if (found) {
      rememberOpener(page, key, index);
      return found;
    }
    if (index === remembered) forgetOpener(page, key);
  }
  return undefined;
}

/** The control behind `opener`, its popup left open only for a toggle found in it. */
async function behindOne(page: Page, c: Control, opener: Locator): Promise<Found | undefined> {
  await openPopup(page, opener);
  const inside = await findShown(page, { ...c, picker: undefined }, 0);
  if (inside?.kind === 'toggle') return { ...inside, opener };
  const offersOn =
    c.picker !== undefined &&
    (await choices(page)
      .filter({ hasText: anyOf(c.picker.on) })
      .count()) > 0;
  await closePopup(opener);
  return offersOn ? { kind: 'picker', at: opener } : undefined;
}

/** Whether the control shows "on"; a toggle behind a popup is shown again to be read. */
export async function readState(page: Page, c: Control, f: Found): Promise<boolean> {
  if (f.kind === 'picker')
    return anyOf(c.picker!.on).test(await f.at.innerText({ timeout: CONTROL_MS }));
  if (f.opener && !(await f.at.isVisible())) {
    await openPopup(page, f.opener);
    await f.at.waitFor({ state: 'visible', timeout: POPUP_MS });
  }
  return toggleState(f.at);
}

async function changeTo(page: Page, c: Control, f: Found, on: boolean, ev?: Evidence) {
  if (f.kind === 'toggle') {
    if (f.opener && !(await f.at.isVisible())) await openPopup(page, f.opener);
    const role = await f.at.getAttribute('role', { timeout: CONTROL_MS });
    if (role === 'tab' && !on) {
      // A tab is cleared by choosing another: the first beside it without the name.
      const other = f.at
        .locator('xpath=ancestor::*[@role="tablist"][1]')
        .getByRole('tab')
        .filter({ hasNotText: anyOf(c.toggle!.names) })
        .first();
      await other.click({ timeout: CLICK_MS });
    } else await f.at.click({ timeout: CLICK_MS });
    return;
  }
  await openPopup(page, f.at);
  const on_ = anyOf(c.picker!.on);
  const choice = (
    on ? choices(page).filter({ hasText: on_ }) : choices(page).filter({ hasNotText: on_ })
  ).first();
  const shown = await choice
    .waitFor({ state: 'visible', timeout: CONTROL_MS })
    .then(() => true)
    .catch(() => false);
  if (!shown) {
    const err = await missing(page, c, ev);
    await closePopup(f.at);
    throw err;
  }
  await choice.click({ timeout: CLICK_MS });
}

/** Records the page as it was (the material to teach the driver the new control). */
async function missing(page: Page, c: Control, ev?: Evidence) {
  const err = controlMissing(c.site, c.label);
  if (ev) {
    const dom = await page.content().catch(() => '');
    ev.note(`${err.message}; the page's DOM: ${dom.slice(0, DOM_EVIDENCE_CHARS)}`);
  }
  return err;
}

/** The picker each control was last found as, per page: its label is the page's model label. */
const pickers = new WeakMap<Page, Map<string, Locator>>();

function remember(page: Page, c: Control, f: Found) {
  const mine = pickers.get(page) ?? new Map<string, Locator>();
  pickers.set(page, mine);
  if (f.kind === 'picker') mine.set(keyOf(c), f.at);
  else mine.delete(keyOf(c));
}

/**
 * Brings the control to `on`, through the page's own widget, off as well as
 * on: a control the page hides behind a popup is looked for there. Returns
 * where it was found (undefined: the page has no such control and `on` is
 * false). Throws the control's drift signal when it is needed and absent or
 * does not change.
 */
export async function setControl(
  page: Page,
  c: Control,
  on: boolean,
  o: { evidence?: Evidence } = {},
): Promise<Found | undefined> {
  // Shown, else behind a popup; a control the mode needs may still be on its way, for
  // what is left of one lookup's time.
  const started = Date.now();
  const found =
    (await findShown(page, c, 0)) ??
    (await findBehind(page, c)) ??
    (on ? await findShown(page, c, Math.max(0, CONTROL_MS - (Date.now() - started))) : undefined);
  if (!found) {
    if (on) throw await missing(page, c, o.evidence);
    return undefined;
  }
  remember(page, c, found);
  try {
    if ((await readState(page, c, found)) !== on) {
      await changeTo(page, c, found, on, o.evidence);
      let now: boolean | undefined;
      for (const until = Date.now() + CONTROL_MS; now !== on && Date.now() < until;) {
        now = await readState(page, c, found).catch(() => undefined);
        if (now !== on) await sleep(POLL_MS);
      }
      if (now !== on) throw controlUnchanged(c.site, c.label);
    }
  } finally {
    // Closed before any other step uses the page, a failed one too (the popup would cover
    // the composer, or the new-chat control of the page's next sub task).
    await closePopup(found.opener);
  }
  return found;
}

/**
 * The choice a picker shows now (Doubao's 快速, Kimi's K2.5 思考, a model
 * name): the page's label for the model. The picker is the one the control
 * was last set through on this page, else one that shows the control's
 * words. Undefined when the page shows none. It does not wait: the page drew
 * its controls before the prompt went out.
 */
export async function shownChoice(page: Page, c: Control): Promise<string | undefined> {
  if (!c.picker) return undefined;
  const at =
    pickers.get(page)?.get(keyOf(c)) ?? page.locator(OPENERS).filter({ hasText: pickerWords(c) });
  const first = at.filter({ visible: true }).first();
  if (!(await first.isVisible().catch(() => false))) return undefined;
  const shown = await first.innerText({ timeout: CONTROL_MS }).catch(() => undefined);
  return shown?.replace(/\s+/g, ' ').trim() || undefined;
}
