/**
 * Baidu's consumer assistant Yiyan (文心一言, yiyan.baidu.com), the `wenxin`
 * platform's web channel, as a driver built on the site-driver kit from its
 * spec (driver.ts). Login is Baidu's passport (SMS code or a QR code scanned
 * in the Baidu app); the session lives in the `BAIDUID` / `BDUSS_BFESS`
 * cookies.
 */
import { siteDriver } from '../../../web/site-driver.js';
import { WENXIN } from './driver.js';

export const wenxinWeb = siteDriver(WENXIN);
