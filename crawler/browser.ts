/**
 * One long-lived Crawlee PlaywrightCrawler per crawler node, kept alive across
 * leases (`keepAlive`): every piece of browser work is a request whose unique
 * key names a waiting promise, settled from the request handler or the
 * failed-request handler. System Chromium, incognito pages, nothing persisted,
 * fixed viewport and user agent. Retries belong to the scheduler, so Crawlee
 * never retries (`maxRequestRetries: 0`). Each request may name its own proxy:
 * its incognito page gets a browser context through that proxy.
 *
 * Work may carry an account's identity (identity.ts): its cookies, local
 * storage, locale and time zone become the options of that work's own
 * incognito context, so nothing of one account is visible to another page.
 * Crawlee's session pool is off: it would carry the cookies one page received
 * into the next page of the same session (another account's), and it fails a
 * navigation answered 401, 403 or 429 before the driver can read the login
 * wall or challenge behind it.
 *
 * Only the work's declared origins are reachable from its context: every other
 * request is aborted before it leaves (origin-allow.ts). The browser itself
 * never takes a regional proxy: Crawlee would otherwise launch it with the
 * first page's proxy, and Chromium's own traffic and every page without a
 * proxy (answer-page screenshots) would leave through that region.
 */
import { randomUUID } from 'node:crypto';
import { Configuration, ProxyConfiguration } from '@crawlee/core';
import { PlaywrightCrawler } from '@crawlee/playwright';
import { chromium, type Page } from 'playwright';
import { CHROMIUM_ARGS, NO_EGRESS_HOST } from './chromium-flags.js';
import { originAllowList, type OriginAllowList } from './origin-allow.js';
import { announceLanguages, identityContextOptions, type BrowserIdentity } from './web/identity.js';

export const VIEWPORT = { width: 1280, height: 900 };
export const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

export { CHROMIUM_ARGS };

export interface PageWork<T> {
  url: string;
  /** The regional proxy the page goes through; direct when absent. */
  proxyUrl?: string;
  /** Origin patterns the page may reach (origin-allow.ts); every other request is aborted. */
  allowedOrigins: readonly string[];
  /** An account's identity, applied to this page's own context only; absent: a blank one. */
  identity?: BrowserIdentity;
  run(page: Page): Promise<T>;
  signal: AbortSignal;
}

interface Waiting {
  work: PageWork<unknown>;
  allowed: OriginAllowList;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export interface BrowserOptions {
  chromiumPath: string;
  concurrency: number;
  /** Upper bound for one piece of work; the work's own signal usually ends it sooner. */
  maxWorkSeconds: number;
  /** A visible window (`driver-check --headed`, where there is a display); default headless. */
  headed?: boolean;
}

/**
 * Crawlee names each page after the crawling context it is created for and
 * keeps those contexts by that id: this lets a page-creation hook find the
 * request (and so the work) the page is for, before its context exists.
 */
class WorkCrawler extends PlaywrightCrawler {
  requestKeyOfPage(pageId: string): string | undefined {
    return this.crawlingContexts.get(pageId)?.request.uniqueKey;
  }
}

export class BrowserRunner {
  private readonly waiting = new Map<string, Waiting>();
  private readonly crawler: WorkCrawler;
  private running: Promise<unknown> | undefined;

  constructor(o: BrowserOptions) {
    const settle = (key: string, fn: (w: Waiting) => void) => {
      const w = this.waiting.get(key);
      if (!w) return;
      this.waiting.delete(key);
      fn(w);
    };
    this.crawler = new WorkCrawler(
      {
        keepAlive: true,
        maxRequestRetries: 0,
        useSessionPool: false,
        maxConcurrency: o.concurrency,
        // Keep the pool at the advertised capacity: on 2 cores Crawlee's
        // autoscaling otherwise believes the machine is overloaded and starves the work.
        autoscaledPoolOptions: {
          desiredConcurrency: o.concurrency,
          minConcurrency: Math.min(o.concurrency, 1),
          systemStatusOptions: {
            maxCpuOverloadedRatio: 1,
            maxMemoryOverloadedRatio: 1,
            maxEventLoopOverloadedRatio: 1,
            maxClientOverloadedRatio: 1,
          },
        },
        requestHandlerTimeoutSecs: o.maxWorkSeconds,
        navigationTimeoutSecs: Math.min(60, o.maxWorkSeconds),
        // The proxy of each page is the one its lease chose (null: direct).
        proxyConfiguration: new ProxyConfiguration({
          newUrlFunction: (_session, options) =>
            (options?.request?.userData as { proxyUrl?: string } | undefined)?.proxyUrl ?? null,
        }),
        launchContext: {
          launcher: chromium,
          useIncognitoPages: true,
          userAgent: USER_AGENT,
          launchOptions: {
            executablePath: o.chromiumPath,
            headless: o.headed !== true,
            args: CHROMIUM_ARGS,
          },
        },
        browserPoolOptions: {
          useFingerprints: false,
          preLaunchHooks: [
            (_pageId, launchContext) => {
              launchContext.proxyUrl = undefined;
              launchContext.launchOptions = {
                ...launchContext.launchOptions,
                proxy: { server: NO_EGRESS_PROXY },
              };
            },
          ],
          prePageCreateHooks: [
            (pageId, _controller, pageOptions) => {
              if (!pageOptions) return;
              // Service workers fetch outside the context's routes: a page gets none.
              pageOptions.serviceWorkers = 'block';
              pageOptions.proxy ??= DIRECT;
              const key = this.crawler.requestKeyOfPage(pageId);
              const identity = key === undefined ? undefined : this.waiting.get(key)?.work.identity;
              if (identity) Object.assign(pageOptions, identityContextOptions(identity));
            },
          ],
        },
        preNavigationHooks: [
          async ({ page, request }) => {
            const w = this.waiting.get(request.uniqueKey);
            await preparePage(page, w?.allowed ?? NOTHING_ALLOWED, w?.work.identity);
          },
        ],
        requestHandler: async ({ page, request }) => {
          const key = request.uniqueKey;
          const w = this.waiting.get(key);
          if (!w) return;
          try {
            const value = await untilAborted(w.work.run(page), w.work.signal);
            settle(key, (x) => x.resolve(value));
          } catch (err) {
            settle(key, (x) => x.reject(err));
          }
        },
        failedRequestHandler: async ({ request }, error) => {
          settle(request.uniqueKey, (x) => x.reject(error));
        },
      },
      new Configuration({ persistStorage: false, purgeOnStart: true }),
    );
  }

  start(): void {
    this.running ??= this.crawler.run().catch(() => undefined);
  }

  /** Opens the URL in a fresh incognito page and runs the work on it. */
  async open<T>(work: PageWork<T>): Promise<T> {
    const allowed = originAllowList(work.allowedOrigins);
    this.start();
    const key = randomUUID();
    const done = new Promise<T>((resolve, reject) => {
      this.waiting.set(key, {
        work: work as PageWork<unknown>,
        allowed,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
    });
    await this.crawler.addRequests([
      { url: work.url, uniqueKey: key, userData: { proxyUrl: work.proxyUrl } },
    ]);
    // Crawlee's pool looks for new requests only when a running one ends (or
    // after a long lull): told at once, work starts while other pages still run.
    void this.crawler.autoscaledPool?.notify();
    const onAbort = () => {
      const w = this.waiting.get(key);
      if (!w) return;
      this.waiting.delete(key);
      w.reject(work.signal.reason ?? new Error('aborted'));
    };
    if (work.signal.aborted) onAbort();
    else work.signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await done;
    } finally {
      work.signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * A page outside Crawlee's request queue that stays open until it is closed:
   * an account's logged-in page kept between its sub tasks (web/kept-pages.ts).
   * The same rules as `open` (its own incognito context with the identity, the
   * proxy, only the allowed origins, no service workers); Crawlee's pool
   * launches its browser and retires it, and then the page is no longer usable.
   */
  async keepPage(o: Omit<PageWork<never>, 'url' | 'run' | 'signal'>): Promise<KeptPage> {
    this.start();
    const pool = this.crawler.browserPool;
    const page = await pool.newPage({
      pageOptions: o.identity ? identityContextOptions(o.identity) : {},
      proxyUrl: o.proxyUrl,
    });
    try {
      await preparePage(page, originAllowList(o.allowedOrigins), o.identity);
    } catch (err) {
      await page.close().catch(() => undefined);
      throw err;
    }
    const controller = pool.getBrowserControllerByPage(page);
    return {
      page,
      usable: () =>
        !page.isClosed() &&
        controller !== undefined &&
        pool.activeBrowserControllers.has(controller),
      close: () => page.close().catch(() => undefined),
    };
  }

  async stop(): Promise<void> {
    for (const [key, w] of this.waiting) {
      this.waiting.delete(key);
      w.reject(new Error('browser stopped'));
    }
    await this.crawler.teardown().catch(() => undefined);
    await this.running;
    this.running = undefined;
  }
}

/** A page that lives across pieces of work until closed (`keepPage`). */
export interface KeptPage {
  readonly page: Page;
  /** False once the page closed or its browser was retired (then it is replaced). */
  usable(): boolean;
  close(): Promise<void>;
}

const NOTHING_ALLOWED = originAllowList([]);

/** Before a page's first navigation: only the allowed origins, the viewport, the identity's languages. */
async function preparePage(
  page: Page,
  allowed: OriginAllowList,
  identity: BrowserIdentity | undefined,
): Promise<void> {
  const context = page.context();
  await context.route(
    (url) => !allowed(url.href),
    (route) => route.abort('blockedbyclient'),
  );
  await context.routeWebSocket(
    (url) => !allowed(url.href),
    (ws) => ws.close(),
  );
  await page.setViewportSize(VIEWPORT);
  if (identity) await announceLanguages(page, identity, USER_AGENT);
}

/**
 * The browser's own proxy: a reserved name that never resolves (RFC 2606, and
 * unresolvable by chromium-flags.ts), so what Chromium sends outside any page's
 * context (component updates, account lists) fails on the machine.
 */
const NO_EGRESS_PROXY = `http://${NO_EGRESS_HOST}`;
/**
 * A page without a regional proxy goes direct. Playwright has no "direct" proxy
 * setting and a context without one inherits the browser's, so: bypass it for
 * every host, loopback included (naming 127.0.0.1 stops Playwright from
 * forcing loopback through the proxy).
 */
const DIRECT = { server: NO_EGRESS_PROXY, bypass: '*,127.0.0.1' };

export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
