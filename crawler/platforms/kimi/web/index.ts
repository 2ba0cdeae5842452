/**
 * Kimi's consumer site (www.kimi.com) as a web driver built on the
 * site-driver kit from its spec (driver.ts).
 */
import { siteDriver } from '../../../web/site-driver.js';
import { KIMI } from './driver.js';

export const kimiWeb = siteDriver(KIMI);
