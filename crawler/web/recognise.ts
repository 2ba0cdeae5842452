/**
 * What an opened page of a consumer site is, judged the way a person judges
 * it, never by one test id or class:
 * - a chat page shows a composer: a multi-line textbox (a textarea or a
 *   contenteditable, `role=textbox`) outside any dialog;
 * - a login wall is a dialog or overlay that asks the person to log in (its
 *   words in each language, a QR code, a phone or password field), a page
 *   without a composer that asks the same, the site's sign-in path, or a
 *   chat page whose only account control is a 登录 / Log in button;
 * - a captcha is a dialog, overlay or frame that asks the person to verify;
 * - a Cloudflare interstitial is its own title or challenge frame;
 * - a page that is neither tells what it is instead: the main document's
 *   HTTP status (a 404 or an error page says at once that the chat is not
 *   here) and a link a person would follow to the chat (开始对话, Start
 *   chatting), as a landing page at the site's root offers one.
 * The site adds its own words and paths (SiteSpec.page); the defaults cover
 * the words the Chinese and English sites share. The probe is one string
 * script (no loader rewrites it), run in one round trip.
 */
import type { Page } from 'playwright';
import type { PlatformError } from '../platforms/types.js';
import { anyOf } from './controls.js';
import { needsHuman } from './signals.js';

export interface PageWords {
  /** Words a login wall shows (added to LOGIN_WORDS). */
  login?: readonly string[];
  /** Words a captcha shows (added to VERIFY_WORDS). */
  verify?: readonly string[];
  /** Paths of the site's sign-in page. */
  loginPaths?: readonly string[];
  /** Words of a link that leads to the chat (added to CHAT_LINK_WORDS). */
  chatLinks?: readonly string[];
}

export const LOGIN_WORDS = [
  '扫码登录',
  '手机号登录',
  '密码登录',
  '验证码登录',
  '登录后',
  '请登录',
  'Log in',
  'Sign in',
  'Login',
];
export const VERIFY_WORDS = [
  '安全验证',
  '人机验证',
  '请完成',
  '拖动滑块',
  '滑块',
  'captcha',
  'verify',
  'verification',
  'hCaptcha',
];
/** What a link to the chat says, on a landing page that is not the chat itself. */
export const CHAT_LINK_WORDS = [
  '开始对话',
  '开始聊天',
  '立即对话',
  '进入对话',
  '立即体验',
  'Start chatting',
  'Start now',
  'Chat now',
];
/** The name of a lone login button on an otherwise usable page (exact). */
const LOGIN_BUTTON = ['登录', '登录/注册', 'Log in', 'Sign in', 'Login'];

export interface PageView {
  path: string;
  /** Index of the composer among COMPOSERS matches; -1 when none shows. */
  composer: number;
  login: string | null;
  captcha: string | null;
  cloudflare: boolean;
  /** The main document's HTTP status (after redirects); 0 where the browser does not tell. */
  status: number;
  /** Whether the document has loaded (its load event fired). */
  loaded: boolean;
  /** A same-origin link to another page whose words lead to the chat; null: none shows. */
  chatLink: string | null;
}

/** What a composer can be: a textarea or a contenteditable textbox. */
export const COMPOSERS =
  'textarea, [contenteditable="true"], [contenteditable=""], [contenteditable="plaintext-only"], [role="textbox"][contenteditable]';

const probeScript = (w: PageWords) => {
  const words = {
    login: anyOf([...LOGIN_WORDS, ...(w.login ?? [])]).source,
    verify: anyOf([...VERIFY_WORDS, ...(w.verify ?? [])]).source,
    chat: anyOf([...CHAT_LINK_WORDS, ...(w.chatLinks ?? [])]).source,
    button: LOGIN_BUTTON,
    paths: w.loginPaths ?? [],
    composers: COMPOSERS,
  };
  return `(() => {
  const W = ${JSON.stringify(words)};
  const LOGIN = new RegExp(W.login, 'i'), VERIFY = new RegExp(W.verify, 'i'), CHAT = new RegExp(W.chat, 'i');
  const shown = (el) => {
    if (!el || el.closest('[hidden]')) return false;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && s.opacity !== '0';
  };
  const text = (el) => (el.innerText || el.textContent || '').trim();
  const dialogs = Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"], [aria-modal="true"], dialog[open]'));
  // Overlays a site draws without a role: fixed layers near the root that cover much of the view.
  for (const el of document.querySelectorAll('body > *, body > * > *')) {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (s.position === 'fixed' && r.width * r.height > innerWidth * innerHeight * 0.3 && !el.querySelector(W.composers)) dialogs.push(el);
  }
  const layers = dialogs.filter(shown);
  const inLayer = (el) => layers.some((d) => d !== el && d.contains(el));
  const asksLogin = (el) => LOGIN.test(text(el)) ||
    !!el.querySelector('input[type="tel"], input[type="password"], img[alt*="二维码"], img[alt*="QR" i], img[alt*="扫码"]');
  const frames = Array.from(document.querySelectorAll('iframe')).filter(shown);
  const captchaFrame = frames.find((f) => VERIFY.test((f.getAttribute('src') || '') + ' ' + (f.getAttribute('title') || '')) || /captcha|geetest/i.test(f.getAttribute('src') || ''));
  const captchaLayer = layers.find((d) => VERIFY.test(text(d)));
  const loginLayer = layers.find((d) => d !== captchaLayer && asksLogin(d));
  const boxes = Array.from(document.querySelectorAll(W.composers));
  const composer = boxes.findIndex((el) => shown(el) && !inLayer(el) && !el.disabled && !el.readOnly && el.getAttribute('aria-disabled') !== 'true');
  const buttons = Array.from(document.querySelectorAll('button, a, [role="button"]')).filter((b) => shown(b) && !inLayer(b));
  const loginButton = buttons.find((b) => W.button.includes(text(b)));
  const path = location.pathname;
  let login = null;
  if (W.paths.some((p) => path === p || path.startsWith(p + '/'))) login = 'the site shows its sign-in page (' + path + ')';
  else if (loginLayer) login = 'the page shows a login dialog';
  else if (composer < 0 && document.body && asksLogin(document.body)) login = 'the page asks to log in';
  else if (composer >= 0 && loginButton) login = 'the page is logged out (it offers ' + text(loginButton) + ')';
  const toChat = Array.from(document.querySelectorAll('a[href]')).find((a) => shown(a) && !inLayer(a) &&
    CHAT.test(text(a)) && a.origin === location.origin && a.pathname !== location.pathname);
  const nav = performance.getEntriesByType('navigation')[0];
  let captcha = null;
  if (captchaLayer) captcha = text(captchaLayer).slice(0, 120) || 'a verification dialog';
  else if (captchaFrame) captcha = (captchaFrame.getAttribute('title') || 'a verification frame').slice(0, 120);
  return {
    path,
    composer,
    login,
    captcha,
    cloudflare: /Just a moment|Attention Required/i.test(document.title) ||
      frames.some((f) => /challenges\\.cloudflare\\.com/.test(f.getAttribute('src') || '')),
    status: (nav && nav.responseStatus) || 0,
    loaded: document.readyState === 'complete',
    chatLink: toChat ? toChat.href : null,
  };
})()`;
};

/** Looks at the page once; undefined while it navigates (its context is being replaced). */
export async function viewPage(page: Page, words: PageWords): Promise<PageView | undefined> {
  try {
    return (await page.evaluate(probeScript(words))) as PageView;
  } catch {
    return undefined;
  }
}

/** The wall a view shows, as the failure it means; undefined when it shows none. */
export function wallOf(site: string, v: PageView): PlatformError | undefined {
  if (v.captcha) return needsHuman(site, `captcha: ${v.captcha}`, 'verification');
  if (v.cloudflare) return needsHuman(site, 'Cloudflare interstitial', 'verification');
  if (v.login) return needsHuman(site, `login wall: ${v.login}`, 'login_wall');
  return undefined;
}
