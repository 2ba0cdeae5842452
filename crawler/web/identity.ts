/**
 * An account's browser identity (its logged-in storage state, locale and time
 * zone) as the options of the one incognito context its page runs in.
 * Playwright applies them natively and to that context alone: cookies through
 * the context, local storage once per origin before the first page exists (so
 * what the site writes later is never overwritten), locale and time zone in
 * every page and worker of the context, and the matching Accept-Language.
 * Playwright announces the locale alone (`Accept-Language: zh-CN`,
 * `navigator.languages` `['zh-CN']`); a browser set to Chinese announces the
 * bare language too, so the page's own target gets the language list
 * (`languagesFor`) before it navigates.
 */
import type { BrowserContextOptions, Page } from 'playwright';
import type { StorageState } from '../../services/shared/contracts/accounts.js';

export interface BrowserIdentity {
  storageState: StorageState;
  /** BCP 47, e.g. `zh-CN`. */
  locale: string;
  /** IANA, e.g. `Asia/Shanghai`. */
  timezoneId: string;
}

export function identityContextOptions(identity: BrowserIdentity): BrowserContextOptions {
  return {
    storageState: identity.storageState,
    locale: identity.locale,
    timezoneId: identity.timezoneId,
    extraHTTPHeaders: { 'Accept-Language': acceptLanguage(identity.locale) },
  };
}

/** The languages a browser set to this locale lists: the locale, then its bare language. */
export function languagesFor(locale: string): string[] {
  const language = locale.split('-')[0]!;
  return language === locale ? [locale] : [locale, language];
}

/** The header those languages make: weights falling from 1 (`zh-CN,zh;q=0.9`). */
export function acceptLanguage(locale: string): string {
  return languagesFor(locale)
    .map((l, i) => (i === 0 ? l : `${l};q=${(1 - i / 10).toFixed(1)}`))
    .join(',');
}

/**
 * Gives the page's own target the full language list: Chromium then sends it
 * (weighted) with navigations and lists it in `navigator.languages`; the
 * context's extra header covers the page's other requests.
 */
export async function announceLanguages(
  page: Page,
  identity: BrowserIdentity,
  userAgent: string,
): Promise<void> {
  // The override lives as long as its session: it stays attached until the page closes.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setUserAgentOverride', {
    userAgent,
    acceptLanguage: languagesFor(identity.locale).join(','),
  });
}
