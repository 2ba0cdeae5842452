/**
 * OpenAI's consumer site, ChatGPT (chatgpt.com), as a web-channel driver
 * built on the site-driver kit from its spec (driver.ts). Login is by email,
 * Google, Microsoft or Apple on auth.openai.com; the session lives in the
 * `__Secure-next-auth.session-token` cookie, which the page exchanges for an
 * access token at `/api/auth/session`.
 */
import { siteDriver } from '../../../web/site-driver.js';
import { CHATGPT } from './driver.js';

export const chatgptWeb = siteDriver(CHATGPT);
