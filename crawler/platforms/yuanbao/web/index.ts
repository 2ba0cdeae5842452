/**
 * Tencent Yuanbao's consumer site, yuanbao.tencent.com, as a web-channel
 * driver built on the site-driver kit from its spec (driver.ts). Login is by
 * WeChat QR code (or QQ, a +86 phone) in a dialog; the session lives in the
 * `hy_user` / `hy_token` cookies (`hy_source=web`).
 */
import { siteDriver } from '../../../web/site-driver.js';
import { YUANBAO } from './driver.js';

export const yuanbaoWeb = siteDriver(YUANBAO);
