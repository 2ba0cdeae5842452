/**
 * Kimi's consumer site (www.kimi.com) as a web driver. The lead wires it
 * into the platform definition as `web: kimiWeb`.
 */
import type { WebDriver } from '../../types.js';
import { askKimiWeb, kimiLoginState } from './driver.js';

/** The real site's hosts: pages, API, login and the image/static CDNs. */
const REAL_HOSTS = /(^|\.)kimi\.com$|(^|\.)moonshot\.cn$/;

function siteOrigin(webUrl: string): string {
  return new URL(webUrl).origin;
}

export const kimiWeb: WebDriver = {
  startUrl: (_job, ctx) => `${siteOrigin(ctx.settings.webUrl)}/`,
  origins: (ctx) => {
    const origin = siteOrigin(ctx.settings.webUrl);
    if (!REAL_HOSTS.test(new URL(origin).hostname)) return [origin];
    const hosts = [
      'https://www.kimi.com',
      'https://kimi.com',
      'https://*.kimi.com',
      'https://*.moonshot.cn',
    ];
    return [...new Set([origin, ...hosts])];
  },
  ask: askKimiWeb,
  loginUrl: (ctx) => `${siteOrigin(ctx.settings.webUrl)}/`,
  loginState: (page) => kimiLoginState(page),
};
