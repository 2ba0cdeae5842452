/**
 * A kept page's next chat, started the way a person starts one: through the
 * site's own new-chat control (a button or link by its name), which clears the
 * conversation without loading the page again. The page has started a new
 * chat when it shows no answer any more and its composer again (the mode
 * controls are then read on the composer it re-rendered, mode-controls.ts).
 * When the control is missing, or the page still shows the old answer after
 * it, the start page is loaded again: slower (the page loads and boots
 * again), never wrong.
 */
import type { Page } from 'playwright';
import type { Evidence } from '../platforms/types.js';
import { anyOf, CLICK_MS, CONTROL_MS } from './controls.js';
import { COMPOSERS } from './recognise.js';
import type { Named } from './site-spec.js';

/** How long a kept page may take to load the start URL again (Crawlee's own navigation bound). */
export const NAVIGATION_TIMEOUT_MS = 60_000;
const POLL_MS = 50;

/** Clicks the new-chat control; true once the page shows no answer. */
async function throughControl(page: Page, control: Named, answer: string): Promise<boolean> {
  const name = anyOf(control.names);
  let at = page.getByRole('button', { name }).or(page.getByRole('link', { name }));
  for (const f of control.fallbacks ?? []) at = at.or(page.locator(f));
  const button = at.filter({ visible: true }).first();
  if (!(await button.isVisible().catch(() => false))) return false;
  await button.click({ timeout: CLICK_MS });
  const answers = page.locator(answer);
  for (const until = Date.now() + CONTROL_MS; Date.now() < until;) {
    if ((await answers.count()) === 0) {
      // The composer the new chat re-renders, which the mode controls are then read on.
      await page
        .locator(COMPOSERS)
        .filter({ visible: true })
        .first()
        .waitFor({ state: 'visible', timeout: CONTROL_MS });
      return true;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return false;
}

/**
 * Starts a new chat on a page that shows the site: the control when the page
 * offers it, else a reload of `startUrl`. Says which in the evidence.
 */
export async function startNewChat(
  page: Page,
  o: { control?: Named; answer: string; startUrl: string; evidence: Evidence },
): Promise<'control' | 'reload'> {
  if (o.control && (await throughControl(page, o.control, o.answer).catch(() => false))) {
    o.evidence.note('new chat through the page’s own control');
    return 'control';
  }
  o.evidence.note(`no new-chat control took: ${o.startUrl} loaded again`);
  await page.goto(o.startUrl, { timeout: NAVIGATION_TIMEOUT_MS });
  return 'reload';
}
