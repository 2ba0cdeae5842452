/**
 * `account check` and `account login` in a real Chromium, with the site's own
 * web driver: the check opens the site as the account and asks the driver's
 * `loginState`; the login opens the driver's `loginUrl`, keeps a screenshot
 * of it in a PNG file, shows the QR code it finds in the terminal, and stores
 * the browser's storage state once the driver sees a logged-in page.
 */
import { createRequire } from 'node:module';
import { rename, writeFile } from 'node:fs/promises';
import { chromium, type Browser, type Page } from 'playwright';
import QRCode from 'qrcode';
import { CHROMIUM_ARGS } from '../../crawler/chromium-flags.js';
import { driverFor } from '../../crawler/platforms/index.js';
import { settingsResolver } from '../../crawler/settings.js';
import { humanKindOf } from '../../crawler/web/signals.js';
import type { LoginState, PlatformSettings, WebDriver } from '../../crawler/platforms/types.js';
import { identityFor } from '../../services/accounts/policy.js';
import type { AccountView } from '../../services/accounts/view.js';
import type { Config } from '../../services/shared/config.js';
import type { CheckedOutAccount, StorageState } from '../../services/shared/contracts/accounts.js';
import type { AccountCalls, CommandContext } from './commands.js';

export interface Site {
  driver: WebDriver;
  settings: PlatformSettings;
}

export interface BrowserDeps {
  call: AccountCalls;
  chromiumPath: string;
  log(text: string): void;
  siteOf(platform: string): Site;
  headed: boolean;
  /** How often the login screen is shot again and the login probed. */
  pollMs: number;
}

/** The platform's web driver and the site it drives (`<P>_WEB_URL` or the real one). */
export function siteOf(config: Config, platform: string): Site {
  const driver = driverFor(platform, 'web')?.web;
  const settings = settingsResolver(
    { url: config.sandbox.url ?? '', timeoutMs: config.sandbox.timeoutMs },
    config.platforms,
  )(platform, 'web');
  if (!driver || !settings?.webUrl) {
    throw new Error(`this build has no web driver for ${platform}`);
  }
  return { driver, settings };
}

export function browserDeps(ctx: CommandContext, headed: boolean): BrowserDeps {
  return {
    call: ctx.call,
    chromiumPath: ctx.config.crawler.chromiumPath,
    log: ctx.log,
    siteOf: (platform) => siteOf(ctx.config, platform),
    headed,
    pollMs: 2_000,
  };
}

export interface CheckResult {
  id: string;
  loggedIn: boolean;
  reason?: string;
  account: AccountView;
}

/** Probes the account's login; logged out: the account goes needs_human with the screenshot. */
export async function checkAccount(d: BrowserDeps, id: string): Promise<CheckResult> {
  const acc = await d.call<CheckedOutAccount>('readState', { id });
  const site = d.siteOf(acc.platform);
  return withBrowser(d, async (browser) => {
    const context = await browser.newContext({
      storageState: acc.storageState,
      locale: acc.locale,
      timezoneId: acc.timezoneId,
    });
    const page = await context.newPage();
    const signal = AbortSignal.timeout(site.settings.timeoutMs);
    const url = site.driver.startUrl({ prompt: '', mode: 'standard', signal }, site);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: site.settings.timeoutMs });
    const state = await site.driver.loginState(page, site);
    if (state.loggedIn) {
      const [account] = (await d.call<AccountView[]>('list', { platform: acc.platform })).filter(
        (a) => a.id === id,
      );
      return { id, loggedIn: true, account: account! };
    }
    const screenshotPng = (await page.screenshot()).toString('base64');
    const account = await d.call<AccountView>('setState', {
      id,
      state: 'needs_human',
      reason: `account check: ${state.reason}`,
      // A captcha on the page asks a person to verify; anything else, to log in.
      kind: humanKindOf(state.reason),
      screenshotPng,
    });
    return { id, loggedIn: false, reason: state.reason, account };
  });
}

export interface LoginRequest {
  platform: string;
  label: string;
  regionCode?: string;
  /** The PNG file the login screen is kept in. */
  out: string;
  timeoutMs: number;
}

export interface LoginResult {
  loggedIn: true;
  /** The last QR code read from the login screen; null: it showed none. */
  qr: string | null;
  out: string;
  account: AccountView;
}

/** Waits for a person to log in on the site, then stores the login as the account (by label). */
export async function loginAccount(d: BrowserDeps, r: LoginRequest): Promise<LoginResult> {
  const site = d.siteOf(r.platform);
  const deadline = Date.now() + r.timeoutMs;
  return withBrowser(d, async (browser) => {
    const context = await browser.newContext(identityFor(r.regionCode ?? null));
    const page = await context.newPage();
    await page.goto(site.driver.loginUrl(site), {
      waitUntil: 'domcontentloaded',
      timeout: r.timeoutMs,
    });
    const reader = await qrReader(browser);
    let qr: string | null = null;
    for (;;) {
      const png = await page.screenshot();
      await writeAtomically(r.out, png);
      const seen = await reader.decode(png);
      if (seen !== null && seen !== qr) {
        qr = seen;
        d.log(await QRCode.toString(seen, { type: 'terminal', small: true }));
        d.log(
          `QR code: ${seen}\nscan it with the ${r.platform} app (the screen is also in ${r.out})`,
        );
      }
      const state = await probe(site, page);
      if (state.loggedIn) break;
      if (Date.now() >= deadline) {
        throw new Error(
          `not logged in within ${r.timeoutMs} ms (${state.reason}); the last screen is in ${r.out}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, d.pollMs));
    }
    const storageState = (await context.storageState()) as StorageState;
    const account = await d.call<AccountView>('import', {
      platform: r.platform,
      label: r.label,
      ...(r.regionCode === undefined ? {} : { regionCode: r.regionCode }),
      storageState,
    });
    return { loggedIn: true, qr, out: r.out, account };
  });
}

/** A page between navigations has no document to probe yet: not logged in so far. */
async function probe(site: Site, page: Page): Promise<LoginState> {
  try {
    return await site.driver.loginState(page, site);
  } catch (err) {
    return { loggedIn: false, reason: (err as Error).message.split('\n')[0]! };
  }
}

export async function withBrowser<T>(d: BrowserDeps, work: (b: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({
    executablePath: d.chromiumPath,
    headless: !d.headed,
    args: CHROMIUM_ARGS,
  });
  try {
    return await work(browser);
  } finally {
    await browser.close();
  }
}

/** A reader watching the file never sees half a PNG. */
async function writeAtomically(path: string, bytes: Buffer): Promise<void> {
  await writeFile(`${path}.tmp`, bytes);
  await rename(`${path}.tmp`, path);
}

const JSQR_PATH = createRequire(import.meta.url).resolve('jsqr');

/** Runs in the page: the PNG drawn on a canvas, its pixels through jsQR (`inversionAttempts` both: dark-mode pages too). */
const DECODE_SCRIPT = `async (b64) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + b64;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.width;
  canvas.height = img.height;
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  const pixels = g.getImageData(0, 0, img.width, img.height);
  const found = window.jsQR(pixels.data, pixels.width, pixels.height, { inversionAttempts: 'attemptBoth' });
  return found ? found.data : null;
}`;

/**
 * jsQR runs in a blank page of its own context, where the browser decodes the
 * PNG into pixels: only the QR text crosses back.
 */
async function qrReader(
  browser: Browser,
): Promise<{ decode(png: Buffer): Promise<string | null> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addScriptTag({ path: JSQR_PATH });
  return {
    decode: (png) =>
      page.evaluate<string | null>(`(${DECODE_SCRIPT})(${JSON.stringify(png.toString('base64'))})`),
  };
}
