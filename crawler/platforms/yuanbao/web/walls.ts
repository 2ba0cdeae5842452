/**
 * What an opened Yuanbao page is, judged the way a person judges it: a chat
 * page shows a composer (a textbox outside any dialog); a login wall is a
 * dialog asking to log in (WeChat QR, phone, QQ) or a page whose only
 * account control is a 登录 button; a captcha is a dialog or frame asking to
 * verify; the location verification is a dialog asking for it; a rate limit
 * is the site's notice. One string script, one round trip.
 */
import type { Page } from 'playwright';
import type { PlatformError } from '../../types.js';
import { pause } from '../../../web/dom-wait.js';
import { driverDrift, needsHuman, rateLimited } from '../../../web/signals.js';
import { LOCATION_WORDS, PAGE, RATE_WORDS } from './page.js';
import { SITE } from './stream.js';

export interface PageView {
  composer: boolean;
  /** A lone 登录 button shows: the page is logged out. */
  loginButton: boolean;
  /** The text of every dialog the page shows. */
  dialogs: string[];
  /** The text of every alert or toast the page shows. */
  alerts: string[];
}

const PROBE = `(() => {
  const shown = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const all = (s) => [...document.querySelectorAll(s)].filter(shown);
  const dialogs = all('[role="dialog"], [aria-modal="true"], [class*="login-modal"], [class*="LoginModal"]');
  const inDialog = (el) => dialogs.some((d) => d.contains(el));
  const text = (el) => ((el.getAttribute('aria-label') || '') + ' ' + (el.innerText || '')).trim();
  return {
    composer: all(${JSON.stringify(PAGE.composer)}).some((el) => !inDialog(el)),
    loginButton: all('button, [role="button"], a').some((el) => /^(登录|登录\\/注册)$/.test((el.innerText || '').trim()) && !inDialog(el)),
    dialogs: dialogs.map((d) => text(d) + ' ' + [...d.querySelectorAll('iframe')].map((f) => f.title).join(' ')),
    alerts: all('[role="alert"], [class*="toast"]').map(text),
  };
})()`;

const LOGIN = new RegExp(
  [...PAGE.walls.login, '扫码登录', '手机号登录', '请登录', '登录后'].join('|'),
);
const VERIFY = new RegExp([...PAGE.walls.verify, '安全验证', '人机验证', '拖动滑块'].join('|'));

export async function viewOf(page: Page): Promise<PageView | undefined> {
  try {
    return (await page.evaluate(PROBE)) as PageView;
  } catch {
    // The page navigates; its context is replaced meanwhile.
    return undefined;
  }
}

/** The wall a view shows, as the failure it means; undefined when it shows none. */
export function wallOf(v: PageView): PlatformError | undefined {
  for (const d of v.dialogs) {
    if (LOCATION_WORDS.test(d)) return needsHuman(SITE, `location_verification: ${d.trim()}`);
    if (VERIFY.test(d)) return needsHuman(SITE, `captcha: the page asks to verify (${d.trim()})`);
    if (LOGIN.test(d)) return needsHuman(SITE, 'login_wall: the page shows its QR login dialog');
  }
  if (v.loginButton) return needsHuman(SITE, 'login_wall: the page is logged out (登录)');
  const rate = v.alerts.find((a) => RATE_WORDS.test(a));
  if (rate) return rateLimited(SITE, rate);
  return undefined;
}

/** Waits for the composer of a logged-in page; a wall first throws its signal. */
export async function untilChatReady(page: Page, waitMs: number, signal: AbortSignal) {
  const until = Date.now() + waitMs;
  for (;;) {
    const v = await viewOf(page);
    const wall = v && wallOf(v);
    if (wall) throw wall;
    if (v?.composer) return;
    // Neither a chat nor a wall: the site changed (drift, not a retry on another account).
    if (Date.now() > until)
      throw driverDrift(`unexpected page: the ${SITE} chat composer did not appear`);
    await pause(100, signal);
  }
}

/** Watches the page while the chat call is awaited; a wall appearing rejects with its signal. */
export async function watchForWalls(page: Page, signal: AbortSignal): Promise<never> {
  for (;;) {
    await pause(300, signal);
    const v = await viewOf(page);
    const wall = v && wallOf(v);
    if (wall) throw wall;
  }
}
