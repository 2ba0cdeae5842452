/**
 * DeepSeek's consumer site, chat.deepseek.com, as a web-channel driver
 * (driver.ts). On the real site the page also loads from its other hosts
 * (static files and site icons on *.deepseek.com) and may show an hCaptcha
 * or a Cloudflare challenge **[hosts unverified]**; a replica or any other
 * configured address serves everything from its own origin.
 */
import type { Page } from 'playwright';
import type { LoginState, WebContext, WebDriver } from '../../types.js';
import { pause } from '../../../web/dom-wait.js';
import { askDeepseekWeb } from './driver.js';
import { probe, wallOf } from './page.js';

const REAL_HOST = 'chat.deepseek.com';
const REAL_ORIGINS = [
  'https://*.deepseek.com',
  'https://hcaptcha.com',
  'https://*.hcaptcha.com',
  'https://challenges.cloudflare.com',
];

const at = (path: string, ctx: Pick<WebContext, 'settings'>) =>
  new URL(path, ctx.settings.webUrl).href;

async function loginState(page: Page): Promise<LoginState> {
  const until = Date.now() + 15_000;
  const signal = new AbortController().signal;
  for (;;) {
    const p = await probe(page);
    const wall = p && wallOf(p);
    if (wall) return { loggedIn: false, reason: wall.message };
    if (p?.composer) return { loggedIn: true };
    if (Date.now() > until) return { loggedIn: false, reason: 'the chat page did not appear' };
    await pause(250, signal);
  }
}

export const deepseekWeb: WebDriver = {
  // A new chat opens at the site's root; a chat's own page is /a/chat/s/<id>.
  startUrl: (_job, ctx) => at('/', ctx),
  origins: (ctx) => {
    const url = new URL(ctx.settings.webUrl);
    return url.hostname === REAL_HOST ? [url.origin, ...REAL_ORIGINS] : [url.origin];
  },
  ask: askDeepseekWeb,
  loginUrl: (ctx) => at('/sign_in', ctx),
  loginState,
};
