/**
 * For the dashboard tests: the web app built once (vite's JS API, into a
 * temporary folder renamed into place, so two test files building at once
 * cannot see half a build), a page whose CSP violations and script errors are
 * collected, and screenshots at desktop and phone widths with the check that
 * nothing overflows the viewport horizontally.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { DASHBOARD_DIR } from '../../services/api/routes/dashboard.js';
import { startSandboxServer } from '../../sandbox/server.js';
import { startEmbedded, type TapLike } from './cluster.js';
import { startForwardProxy } from './forward-proxy.js';
import { ROOT } from '../../infra/processes.js';
import { startReceiver } from '../../bench/webhook-receiver.js';
import { screenshotOf } from '../../crawler/screenshot.js';

export const ARTIFACTS = join(ROOT, 'var/artifacts/web');

export const WIDTHS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

export async function ensureDashboardBuilt(): Promise<void> {
  if (existsSync(join(DASHBOARD_DIR, 'index.html'))) return;
  const { build } = await import('vite');
  const target = DASHBOARD_DIR.replace(/\/$/, '');
  const staging = `${target}.build-${process.pid}`;
  await build({
    configFile: join(ROOT, 'web/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: staging, emptyOutDir: true },
  });
  await rename(staging, target).catch(async (err: NodeJS.ErrnoException) => {
    // Another test file finished its build first: theirs is as good.
    if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    await rm(staging, { recursive: true, force: true });
  });
}

/**
 * The built dashboard served by the embedded service with every role: the
 * sandbox (answers after `latencyMs`), one Shanghai proxy port (a forward
 * proxy on loopback, checked every 300 ms) and a webhook receiver.
 */
export async function startDashboardService(
  t: TapLike,
  latencyMs: number,
  extraEnv: Record<string, string> = {},
) {
  await ensureDashboardBuilt();
  const sandbox = await startSandboxServer({ latencyMs });
  const proxy = await startForwardProxy('127.0.0.1');
  const receiver = await startReceiver();
  t.teardown(async () => {
    await sandbox.close();
    await proxy.stop();
    await receiver.close();
  });
  const svc = await startEmbedded(t, {
    SERVICES: 'all',
    SANDBOX_URL: sandbox.url,
    CRAWLER_PROXIES: JSON.stringify([
      { port: proxy.port, url: proxy.url, regionCode: '310100', outIp: '127.0.0.1' },
    ]),
    PROXY_CHECK_URL: `${sandbox.url}/ip`,
    PROXY_CHECK_MS: '300',
    CALLBACK_ALLOW_CIDRS: '127.0.0.0/8',
    ...extraEnv,
  });
  return { svc, proxy, receiver };
}

export interface WatchedPage {
  page: Page;
  /** CSP violations, uncaught errors, console errors and 5xx answers, as text. */
  problems: string[];
}

export async function openPage(
  browser: Browser,
  baseURL: string,
  locale = 'en-GB',
): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL,
    locale,
    viewport: WIDTHS.desktop,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // CSP refusals are console errors too; a refused request (the form's 400) is the test's own doing.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${msg.text()}`);
    }
  });
  page.on('response', (res) => {
    if (res.status() >= 500) problems.push(`${res.status()} from ${res.url()}`);
  });
  return { page, problems };
}

/**
 * Horizontal overflow: the page scrolls sideways, or a visible element ends
 * past the right edge. Elements inside a box that scrolls sideways on purpose
 * (wide tables) count only if that box itself sticks out. Page code as text:
 * the test program is compiled without the DOM's types.
 */
const OVERFLOW_PROBE = `(() => {
  const width = window.innerWidth;
  const found = [];
  const scroll = document.scrollingElement.scrollWidth;
  if (scroll > width) found.push('document scrollWidth ' + scroll + ' > ' + width);
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const scroller = el.parentElement && el.parentElement.closest('.grid-scroll, .markdown');
    if (scroller && scroller.getBoundingClientRect().right <= width + 0.5) continue;
    if (box.right > width + 0.5) {
      found.push(el.tagName.toLowerCase() + '.' + String(el.className) + ' ends at ' + Math.round(box.right));
    }
  }
  return found.slice(0, 10);
})()`;

export function overflow(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(OVERFLOW_PROBE);
}

/**
 * What sticks out of one box sideways (a card): the box scrolls sideways, or a
 * visible element inside ends past its right edge, each named. Page code as
 * text, as OVERFLOW_PROBE.
 */
const BOX_OVERFLOW_PROBE = `((box) => {
  const found = [];
  const edge = box.getBoundingClientRect().right;
  if (box.scrollWidth > box.clientWidth) found.push('scrollWidth ' + box.scrollWidth + ' > ' + box.clientWidth);
  for (const el of box.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > edge + 0.5) {
      found.push(el.tagName.toLowerCase() + ' ends at ' + Math.round(r.right) + ' > ' + Math.round(edge));
    }
  }
  return found;
})`;

/** Horizontal overflow of the first element the selector finds (see BOX_OVERFLOW_PROBE). */
export function overflowOfBox(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(
    `(${BOX_OVERFLOW_PROBE})(document.querySelector(${JSON.stringify(selector)}))`,
  );
}

/**
 * Screenshots of the current page at 1280 px and at 390 px (saved as
 * var/artifacts/web/<name>-<width>.png), and the overflow found at each.
 */
export async function snapBoth(page: Page, name: string): Promise<Record<string, string[]>> {
  await mkdir(ARTIFACTS, { recursive: true });
  const found: Record<string, string[]> = {};
  for (const size of [WIDTHS.desktop, WIDTHS.phone]) {
    await page.setViewportSize(size);
    // Charts and layout follow the resize on the next frames.
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 150)))');
    found[size.width] = await overflow(page);
    await screenshotOf(page, {
      path: join(ARTIFACTS, `${name}-${size.width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize(WIDTHS.desktop);
  return found;
}
