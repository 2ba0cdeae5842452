/**
 * Tencent Yuanbao's consumer site, yuanbao.tencent.com, as a web-channel
 * driver (driver.ts). Login is by WeChat QR code (or QQ / a +86 phone) in a
 * dialog the page's 登录 button opens; the session lives in the `hy_user` /
 * `hy_token` cookies (`hy_source=web`). On the real site the page also loads
 * from Tencent's other hosts and the WeChat login frame from
 * open.weixin.qq.com **[hosts inferred]**; a replica or any other configured
 * address serves everything from its own origin.
 */
import type { Page } from 'playwright';
import type { LoginState, WebContext, WebDriver } from '../../types.js';
import { pause } from '../../../web/dom-wait.js';
import { askYuanbaoWeb } from './driver.js';
import { viewOf, wallOf } from './walls.js';

const REAL_HOST = 'yuanbao.tencent.com';
const REAL_ORIGINS = [
  'https://*.tencent.com',
  'https://*.qq.com',
  'https://*.gtimg.cn',
  'https://*.gtimg.com',
  'https://*.qpic.cn',
];

const at = (path: string, ctx: Pick<WebContext, 'settings'>) =>
  new URL(path, ctx.settings.webUrl).href;

async function loginState(page: Page): Promise<LoginState> {
  const until = Date.now() + 15_000;
  const signal = new AbortController().signal;
  for (;;) {
    const v = await viewOf(page);
    const wall = v && wallOf(v);
    if (wall) return { loggedIn: false, reason: wall.message };
    // The user's name loads after the composer: logged in once the composer stays without 登录.
    if (v?.composer) {
      await pause(500, signal);
      const again = await viewOf(page);
      const later = again && wallOf(again);
      return later ? { loggedIn: false, reason: later.message } : { loggedIn: true };
    }
    if (Date.now() > until) return { loggedIn: false, reason: 'the chat page did not appear' };
    await pause(250, signal);
  }
}

export const yuanbaoWeb: WebDriver = {
  // A new chat opens at /chat; a chat's own page is /chat/<agentId>/<conversationId>.
  startUrl: (_job, ctx) => at('/chat', ctx),
  origins: (ctx) => {
    const url = new URL(ctx.settings.webUrl);
    return url.hostname === REAL_HOST ? [url.origin, ...REAL_ORIGINS] : [url.origin];
  },
  ask: askYuanbaoWeb,
  // The page's 登录 button opens the QR dialog: the person clicks it and scans.
  loginUrl: (ctx) => at('/chat', ctx),
  loginState,
};
