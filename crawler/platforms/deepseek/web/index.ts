/**
 * DeepSeek's consumer site, chat.deepseek.com, as a web-channel driver built
 * on the site-driver kit from its spec (driver.ts).
 */
import { siteDriver } from '../../../web/site-driver.js';
import { DEEPSEEK } from './driver.js';

export const deepseekWeb = siteDriver(DEEPSEEK);
