/**
 * A site's controls found the way a person finds them: by what they are (an
 * accessible role) and what they say (their name, in every language the site
 * uses), with a few ordered fallbacks (a test id, a class) for a control that
 * names itself badly. A site that redraws a switch as a pressed button, or
 * renames a class, still shows the person the same word.
 *
 * Two widgets carry a mode:
 * - a toggle (switch, checkbox, pressed button, tab): its state is
 *   `aria-pressed`, `aria-checked`, `aria-selected`, `aria-expanded` or an
 *   active / selected / checked class;
 * - a picker (a button with `aria-haspopup` showing its current choice, such
 *   as 快速 / 专家): its state is the choice it shows, set through its menu.
 *
 * A picker's shown choice is also the page's label for the model that answers
 * (`shownChoice`), read the same way and never a failure when absent.
 *
 * Every lookup has a short deadline, never Playwright's 30 s. A page that
 * already shows the requested state is not touched; a control that should be
 * off and is absent needs nothing, so a mode that needs no control never
 * fails on one. A control that is needed and cannot be found, or does not
 * take the state, is driver drift (signals.ts): the sub task fails with the
 * control's name, the page's DOM goes to the evidence, the account stays fine.
 */
import type { Locator, Page } from 'playwright';
import type { Evidence } from '../platforms/types.js';
import { controlMissing, controlUnchanged } from './signals.js';

/** How long one lookup or state change may take. */
export const CONTROL_MS = 2_500;
/**
 * How long a click on a control already found may take: longer than a lookup,
 * since a busy page (its own proof-of-work, signatures) may be slow to take it.
 */
export const CLICK_MS = 10_000;
/** How much of the page's DOM a missing control leaves in the evidence. */
const DOM_EVIDENCE_CHARS = 200_000;
const POLL_MS = 100;

type Role = Parameters<Page['getByRole']>[0];

export interface Control {
  site: string;
  /** The control's name in signals: `deep-thinking`. */
  label: string;
  /** As a toggle: its roles and its names in each language. */
  toggle?: { roles: readonly Role[]; names: readonly string[] };
  /** As a picker: the choices it shows for on and for off, in each language. */
  picker?: { on: readonly string[]; off: readonly string[] };
  /** Toggles found by test id or class, tried in order after the named ones. */
  fallbacks?: readonly string[];
  /** Names of the button whose popover holds the control (Kimi's tools button), when it hides there. */
  inPopover?: readonly string[];
}

interface Found {
  kind: 'toggle' | 'picker';
  at: Locator;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Any of the names, as a case-insensitive pattern. */
export const anyOf = (names: readonly string[]) => new RegExp(names.map(escape).join('|'), 'i');

const STATE_ATTRIBUTES = ['aria-pressed', 'aria-checked', 'aria-selected', 'aria-expanded'];
const ON_CLASS = /(^|[\s_-])(active|selected|checked)($|[\s_-])/i;

/** The state a toggle shows: its first ARIA state attribute, else an active class. */
async function toggleState(at: Locator): Promise<boolean> {
  for (const name of STATE_ATTRIBUTES) {
    const v = await at.getAttribute(name, { timeout: CONTROL_MS });
    if (v === 'true' || v === 'mixed') return true;
    if (v === 'false') return false;
  }
  return ON_CLASS.test((await at.getAttribute('class', { timeout: CONTROL_MS })) ?? '');
}

/** Where the control may be, in the order a person would trust them. */
function candidates(page: Page, c: Control): Found[] {
  const out: Found[] = [];
  // A picker's button also bears a name; as a toggle it would be misread.
  const plain = page.locator(':not([aria-haspopup])');
  for (const role of c.toggle?.roles ?? [])
    out.push({
      kind: 'toggle',
      at: page.getByRole(role, { name: anyOf(c.toggle!.names) }).and(plain),
    });
  if (c.picker)
    for (const role of ['button', 'combobox'] as const)
      out.push({
        kind: 'picker',
        at: page
          .getByRole(role, { name: anyOf([...c.picker.on, ...c.picker.off]) })
          .and(page.locator('[aria-haspopup]')),
      });
  for (const selector of c.fallbacks ?? [])
    out.push({ kind: 'toggle', at: page.locator(selector) });
  return out;
}

/**
 * The control; when it sits in a popover and is not shown, `reveal` opens
 * the popover (only a control that must be on is worth the click).
 */
async function find(
  page: Page,
  c: Control,
  waitMs: number,
  reveal: boolean,
): Promise<Found | undefined> {
  const shown = await findShown(page, c, c.inPopover ? 0 : waitMs);
  if (shown || !c.inPopover || !reveal) return shown;
  const opener = page
    .getByRole('button', { name: anyOf(c.inPopover) })
    .filter({ visible: true })
    .first();
  if (!(await opener.isVisible().catch(() => false))) return undefined;
  await opener.click({ timeout: CLICK_MS });
  return findShown(page, c, CONTROL_MS);
}

/** The first candidate the page shows, waiting at most `waitMs` for any of them. */
async function findShown(page: Page, c: Control, waitMs: number): Promise<Found | undefined> {
  const all = candidates(page, c);
  if (all.length === 0) return undefined;
  if (waitMs > 0)
    await all
      .map((f) => f.at)
      .reduce((a, b) => a.or(b))
      .filter({ visible: true })
      .first()
      .waitFor({ state: 'visible', timeout: waitMs })
      .catch(() => undefined);
  for (const f of all) {
    const first = f.at.first();
    if (await first.isVisible().catch(() => false)) return { kind: f.kind, at: first };
  }
  return undefined;
}

/** Whether the control shows "on"; undefined when a picker shows no choice it knows. */
async function stateOf(c: Control, f: Found): Promise<boolean | undefined> {
  if (f.kind === 'toggle') return toggleState(f.at);
  const shown = await f.at.innerText({ timeout: CONTROL_MS });
  if (anyOf(c.picker!.on).test(shown)) return true;
  if (anyOf(c.picker!.off).test(shown)) return false;
  return undefined;
}

async function changeTo(page: Page, c: Control, f: Found, on: boolean, ev?: Evidence) {
  await f.at.click({ timeout: CLICK_MS });
  if (f.kind === 'picker') {
    const name = anyOf(on ? c.picker!.on : c.picker!.off);
    const choice = page
      .getByRole('menuitem', { name })
      .or(page.getByRole('menuitemradio', { name }))
      .or(page.getByRole('option', { name }))
      .filter({ visible: true })
      .first();
    const shown = await choice
      .waitFor({ state: 'visible', timeout: CONTROL_MS })
      .then(() => true)
      .catch(() => false);
    if (!shown) throw await missing(page, c, ev);
    await choice.click({ timeout: CLICK_MS });
  }
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

/**
 * Brings the control to `on`, through the page's own widget. Throws the
 * control's drift signal when it is needed and absent or does not change.
 */
export async function setControl(
  page: Page,
  c: Control,
  on: boolean,
  o: { evidence?: Evidence } = {},
): Promise<void> {
  // "Off" is every site's default: an absent control is already off.
  const found = await find(page, c, on ? CONTROL_MS : 0, on);
  if (!found) {
    if (on) throw await missing(page, c, o.evidence);
    return;
  }
  if ((await stateOf(c, found)) === on) return;
  await changeTo(page, c, found, on, o.evidence);
  for (const until = Date.now() + CONTROL_MS; Date.now() < until;) {
    if ((await stateOf(c, found)) === on) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw controlUnchanged(c.site, c.label);
}

/**
 * The choice a picker shows now (Doubao's 快速, Kimi's K2.5 思考): the page's
 * label for the model. Undefined when the page shows no such picker. It does
 * not wait: the page drew its controls before the prompt went out.
 */
export async function shownChoice(page: Page, c: Control): Promise<string | undefined> {
  if (!c.picker) return undefined;
  const found = await findShown(page, { site: c.site, label: c.label, picker: c.picker }, 0);
  const shown = await found?.at.innerText({ timeout: CONTROL_MS }).catch(() => undefined);
  return shown?.replace(/\s+/g, ' ').trim() || undefined;
}
