/**
 * What the driver reads and touches on chat.deepseek.com, in one place: the
 * selectors (xln3/platform-v2 deepseek_adapter.py, live-calibrated 2026:
 * `textarea#chat-input`, `div.ds-toggle-button[aria-pressed]`,
 * `div.ds-markdown`; the sign-in page at /sign_in with 微信扫码登录 /
 * 手机号登录), the page probe for login walls and challenges, and the mode
 * chips. Scripts run in the page are plain strings, so no loader rewrites them.
 */
import type { Page } from 'playwright';
import { PlatformError } from '../../types.js';
import { needsHuman } from '../../../web/signals.js';
import { pause } from '../../../web/dom-wait.js';
import { SITE } from './stream.js';

export const SELECTORS = {
  composer: 'textarea#chat-input',
  toggle: 'div.ds-toggle-button',
  /** The send and stop controls **[real names unverified]**; Enter sends as well. */
  send: '[role="button"][aria-label="发送"]',
  stop: '[role="button"][aria-label="停止生成"]',
  answer: 'div.ds-markdown.ds-assistant-message-main-content',
  /** The "已搜索到 N 个网页" chip that opens the sources panel **[unverified]**. */
  sourcesOpener: '.ds-search-summary',
  sourcesPanel: '.ds-sources-panel',
} as const;

/** The chips' labels, newest first (older builds: 联网搜索, DeepThink (R1)). */
export const THINK_LABEL = /深度思考|DeepThink/;
export const SEARCH_LABEL = /智能搜索|联网搜索|Search/;

export interface PageProbe {
  path: string;
  composer: boolean;
  signIn: boolean;
  captcha: boolean;
  cloudflare: boolean;
}

const PROBE = `(() => {
  const shown = (el) => { if (!el) return false; const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const any = (sel) => Array.from(document.querySelectorAll(sel)).some(shown);
  const text = document.body ? document.body.innerText || '' : '';
  return {
    path: location.pathname,
    composer: any(${JSON.stringify(SELECTORS.composer)}),
    signIn: /^\\/sign_in/.test(location.pathname) ||
      (any('[role="dialog"], [class*="login-modal"]') && /微信扫码登录|手机号登录|密码登录/.test(text)),
    captcha: any('iframe[src*="captcha"], iframe[title*="hCaptcha"], iframe[src*="geetest"], .h-captcha, [class*="captcha"]'),
    cloudflare: /Just a moment|Attention Required/.test(document.title) ||
      any('iframe[src*="challenges.cloudflare.com"]'),
  };
})()`;

/** The probe, retried while the page navigates (its context is replaced meanwhile). */
export async function probe(page: Page): Promise<PageProbe | undefined> {
  try {
    return (await page.evaluate(PROBE)) as PageProbe;
  } catch {
    return undefined;
  }
}

/** The signal a probe shows, as the failure it means; undefined when it shows none. */
export function wallOf(p: PageProbe): PlatformError | undefined {
  if (p.captcha) return needsHuman(SITE, 'captcha: the page shows an hCaptcha challenge');
  if (p.cloudflare) return needsHuman(SITE, 'Cloudflare interstitial');
  if (p.signIn) return needsHuman(SITE, `login wall: the site shows its sign-in page (${p.path})`);
  return undefined;
}

/** Waits for the chat composer; a login wall or challenge first throws its signal. */
export async function untilChatReady(page: Page, waitMs: number, signal: AbortSignal) {
  const until = Date.now() + waitMs;
  for (;;) {
    const p = await probe(page);
    const wall = p && wallOf(p);
    if (wall) throw wall;
    if (p?.composer) return;
    if (Date.now() > until) {
      throw new PlatformError(
        `unexpected page: the ${SITE} chat composer did not appear`,
        'failed',
        true,
      );
    }
    // Short: on a kept page the composer is usually there a moment after the load.
    await pause(100, signal);
  }
}

/**
 * Watches the page while the chat call is awaited: a challenge or sign-in
 * page appearing instead rejects with its signal. Ends with `signal`.
 */
export async function watchForWalls(page: Page, signal: AbortSignal): Promise<never> {
  for (;;) {
    await pause(400, signal);
    const p = await probe(page);
    const wall = p && wallOf(p);
    if (wall) throw wall;
  }
}

/** Sets a mode chip through the page's own control and checks that it took. */
export async function setChip(page: Page, label: RegExp, on: boolean, signal: AbortSignal) {
  const chip = page.locator(SELECTORS.toggle).filter({ hasText: label }).first();
  if ((await chip.count()) === 0) {
    if (!on) return;
    throw new PlatformError(`${SITE}: no ${label.source} toggle on the page`, 'failed', true);
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const pressed = (await chip.getAttribute('aria-pressed')) === 'true';
    if (pressed === on) return;
    await chip.click();
    await pause(100, signal);
  }
  throw new PlatformError(`${SITE}: the ${label.source} toggle did not switch`, 'failed', true);
}

/** Leaves the sources panel open for the screenshot; false when the page shows none. */
export async function openSources(page: Page): Promise<boolean> {
  const opener = page.locator(SELECTORS.sourcesOpener).last();
  if ((await opener.count()) === 0 || !(await opener.isVisible())) return false;
  await opener.click();
  await page.locator(SELECTORS.sourcesPanel).waitFor({ state: 'visible', timeout: 5_000 });
  return true;
}
