/**
 * Alibaba's Qwen consumer site (chat.qwen.ai internationally; the domestic
 * 千问 site) as a web-channel driver built on the site-driver kit from its
 * spec (driver.ts). The session is a JWT in localStorage `token` (the
 * domestic site's `tongyi_sso_ticket` cookie); login is by a person
 * (`account login`) or an imported storage state.
 */
import { siteDriver } from '../../../web/site-driver.js';
import { QWEN } from './driver.js';

export const qwenWeb = siteDriver(QWEN);
