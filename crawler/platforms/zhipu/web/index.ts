/**
 * Zhipu's consumer site, ChatGLM (智谱清言, chatglm.cn), as a web-channel
 * driver built on the site-driver kit from its spec (driver.ts). Login is by
 * phone code or WeChat QR code in a dialog; the session lives in the
 * `chatglm_refresh_token` cookie, which the page exchanges at `/user/refresh`.
 */
import { siteDriver } from '../../../web/site-driver.js';
import { ZHIPU } from './driver.js';

export const zhipuWeb = siteDriver(ZHIPU);
