/**
 * Google's consumer assistant, Gemini (gemini.google.com), as a web-channel
 * driver built on the site-driver kit from its spec (driver.ts). Login is a
 * Google account; the session lives in the `__Secure-1PSID` /
 * `__Secure-1PSIDTS` cookies, and the page carries its `SNlM0e` token.
 */
import { siteDriver } from '../../../web/site-driver.js';
import { GEMINI } from './driver.js';

export const geminiWeb = siteDriver(GEMINI);
