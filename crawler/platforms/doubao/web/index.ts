/**
 * Doubao's consumer site (doubao.com) as a web driver. The lead wires it in
 * as `web:` of crawler/platforms/doubao/index.ts.
 */
import type { Page } from 'playwright';
import type { LoginState, PlatformSettings, WebDriver } from '../../types.js';
import { askDoubaoWeb } from './driver.js';
import { SEL, wallOnPage } from './page.js';

/** The hosts the real site's pages use besides the site: its API, sign-in, CDNs and media. */
const REAL_SITE_ORIGINS = [
  'https://www.doubao.com',
  'https://*.doubao.com',
  'https://*.byteimg.com',
  'https://*.bytescm.com',
  'https://*.bytegoofy.com',
  'https://*.byteacctimg.com',
  'https://*.snssdk.com',
  'https://*.zijieapi.com',
  'https://*.douyinpic.com',
  'https://*.ibytedapm.com',
];

const chatUrl = (s: Pick<PlatformSettings, 'webUrl'>) => new URL('/chat/', s.webUrl).toString();

async function loginState(page: Page): Promise<LoginState> {
  await page
    .locator(`${SEL.composer}, ${SEL.loginDialog}`)
    .first()
    .waitFor({ state: 'visible', timeout: 15_000 });
  const wall = await wallOnPage(page);
  return wall ? { loggedIn: false, reason: wall } : { loggedIn: true };
}

export const doubaoWeb: WebDriver = {
  startUrl: (_job, ctx) => chatUrl(ctx.settings),
  origins: (ctx) => {
    const own = new URL(ctx.settings.webUrl);
    return /(^|\.)doubao\.com$/.test(own.hostname)
      ? [own.origin, ...REAL_SITE_ORIGINS.filter((o) => o !== own.origin)]
      : [own.origin];
  },
  ask: askDoubaoWeb,
  loginUrl: (ctx) => new URL('/chat/?from_login=1', ctx.settings.webUrl).toString(),
  loginState: (page) => loginState(page),
};
