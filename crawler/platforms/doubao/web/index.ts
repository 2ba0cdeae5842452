/**
 * Doubao's consumer site (doubao.com) as a web driver built on the
 * site-driver kit from its spec (driver.ts).
 */
import { siteDriver } from '../../../web/site-driver.js';
import { DOUBAO } from './driver.js';

export const doubaoWeb = siteDriver(DOUBAO);
