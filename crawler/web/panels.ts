/**
 * A panel a person opens by clicking what names it (a sources panel behind
 * its "已搜索到 12 个网页" chip): the opener found by its name first (any
 * role, or its text), then by the site's selectors; the panel by the site's
 * selectors (old and new names). Short deadlines: a panel
 * is for the screenshot, never worth a failed answer.
 */
import type { Locator, Page } from 'playwright';
import { anyOf, CLICK_MS } from './controls.js';
import type { Named } from './site-spec.js';

/** How long the panel may take to show after the click. */
const PANEL_MS = 5_000;

export interface Panel {
  opener: Named;
  /** Selectors of the open panel, any of them. */
  panel: readonly string[];
  /** Where the opener is looked for (the newest answer); default: the page. */
  within?: (page: Page) => Locator;
}

/** Opens the panel and leaves it open; false when the page shows no opener. */
export async function openPanel(page: Page, p: Panel): Promise<boolean> {
  const scope = p.within ? p.within(page) : page;
  const name = anyOf(p.opener.names);
  let opener = scope.getByRole('button', { name }).or(scope.getByText(name));
  for (const f of p.opener.fallbacks ?? []) opener = opener.or(scope.locator(f));
  const at = opener.filter({ visible: true }).last();
  if (!(await at.isVisible().catch(() => false))) return false;
  const open = page.locator(p.panel.join(', ')).filter({ visible: true }).first();
  if (await open.isVisible().catch(() => false)) return true;
  await at.click({ timeout: CLICK_MS });
  return open
    .waitFor({ state: 'visible', timeout: PANEL_MS })
    .then(() => true)
    .catch(() => false);
}
