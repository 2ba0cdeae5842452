/**
 * Perplexity's consumer site, www.perplexity.ai, as a web-channel driver
 * built on the site-driver kit from its spec (driver.ts). Login is the
 * site's own (Google, Apple or an emailed code); the session lives in the
 * `__Secure-next-auth.session-token` cookie. Cloudflare guards the site:
 * its challenge is a `captcha` for a person, never bypassed.
 */
import { siteDriver } from '../../../web/site-driver.js';
import { PERPLEXITY } from './driver.js';

export const perplexityWeb = siteDriver(PERPLEXITY);
