/**
 * What every consumer-site driver test repeats around its own cases: a
 * fresh page of the replica as an account (or logged out) in the site's
 * locale, the driver's ask on it from its start URL, the PlatformError a
 * call ends in, the chat request the page sent, every mode asked in turn,
 * and the walls (each directive its named outcome within seconds). A site's
 * test file keeps only its site's own cases and words.
 */
import type { Test } from 'tap';
import type { Browser, BrowserContext, Page } from 'playwright';
import type {
  Job,
  PlatformSettings,
  WebAnswer,
  WebContext,
  WebDriver,
} from '../../crawler/platforms/types.js';
import { MODES, type Mode } from '../../services/shared/platforms.js';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import { failure } from './platform-drivers.js';
import { webContext } from './web-context.js';

export interface DriverRun {
  context: BrowserContext;
  page: Page;
  ctx: WebContext;
  result: Promise<WebAnswer>;
}

/** A job with a minute to answer. */
export const jobOf = (prompt: string, mode: Mode): Job => ({
  prompt,
  mode,
  signal: AbortSignal.timeout(60_000),
});

/** The driver's settings for a replica at `webUrl`. */
export const settingsOf = (webUrl: string): PlatformSettings => ({
  apiBaseUrl: '',
  webUrl,
  timeoutMs: 30_000,
});

/** The PlatformError a call ends in; anything else fails the test. */
export { failure } from './platform-drivers.js';

/** How a site's pages open: its driver in the test's browser, its users' locale and time zone. */
export interface SitePages {
  browser: Browser;
  driver: WebDriver;
  locale: string;
  timezoneId?: string;
}

/** A fresh page logged in as `state` (null: logged out), closed with the test; a page error fails it. */
export async function openPage(
  t: Test,
  site: SitePages,
  state: StorageState | null,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await site.browser.newContext({
    storageState: (state ?? undefined) as never,
    locale: site.locale,
    ...(site.timezoneId ? { timezoneId: site.timezoneId } : {}),
    viewport: { width: 1280, height: 900 },
  });
  t.teardown(() => context.close());
  const page = await context.newPage();
  page.on('pageerror', (e) => t.fail(`page error: ${e.message}`));
  return { context, page };
}

/** The driver asks `j` on a fresh page opened at its start URL. */
export async function askOn(
  t: Test,
  site: SitePages,
  settings: PlatformSettings,
  j: Job,
  state: StorageState | null,
): Promise<DriverRun> {
  const { context, page } = await openPage(t, site, state);
  const ctx = await webContext(page, settings);
  await page.goto(site.driver.startUrl(j, { settings }));
  return { context, page, ctx, result: site.driver.ask(page, j, ctx) };
}

/** The JSON body of the chat request the page sent, as the evidence recorded it. */
export function sentBody<T = Record<string, unknown>>(run: { ctx: WebContext }): T {
  const request = run.ctx.evidence.list().find((e) => e.kind === 'request');
  return JSON.parse((request as { body: string }).body) as T;
}

export type Ask = (t: Test, j: Job, state?: StorageState | null) => Promise<DriverRun>;

/**
 * Every mode through the page's own controls: the exact answer the replica
 * holds, then the site's own checks of the run (the request it sent, the
 * panels it shows).
 */
export async function everyMode(
  t: Test,
  ask: Ask,
  prompt: string,
  expected: (prompt: string, mode: Mode) => WebAnswer,
  check: (run: DriverRun, mode: Mode) => Promise<void> | void,
): Promise<void> {
  for (const mode of MODES) {
    const run = await ask(t, jobOf(prompt, mode));
    t.same(await run.result, expected(prompt, mode), `${mode}: the fields`);
    await check(run, mode);
    await run.context.close();
  }
}

/** A directive in the prompt (or a page's login), the error it must end in, and the account's state. */
export type Wall = [
  directive: string,
  state: StorageState | null | undefined,
  message: RegExp,
  account: string | undefined,
];

/** Every wall its named outcome within seconds, asked with `topic` and the wall's directive. */
export async function checkWalls(t: Test, ask: Ask, topic: string, walls: Wall[]): Promise<void> {
  for (const [directive, state, message, account] of walls) {
    const started = Date.now();
    const run = await ask(t, jobOf(`${topic} ${directive}`, 'standard'), state);
    const err = await failure(run.result);
    t.match(
      err,
      { message, account: { state: account } },
      `${directive || 'logged out'}: ${err.message}`,
    );
    t.ok(Date.now() - started < 10_000, `within seconds (${Date.now() - started} ms)`);
    await run.context.close();
  }
}

/** The site refuses the prompt: a refusal, not retried, the account untouched. */
export async function checkRefusal(t: Test, ask: Ask, topic: string, message: RegExp) {
  const refusal = await ask(t, jobOf(`${topic} #replica:refusal`, 'standard'));
  t.match(await failure(refusal.result), { message, retryable: false, account: undefined });
}

/** A logged-out page needs a person; the imported login `login` is logged in (each page opened at `url`). */
export async function checkLoginStates(
  t: Test,
  site: SitePages,
  login: StorageState,
  url: string,
  settings: PlatformSettings,
): Promise<void> {
  for (const [state, loggedIn] of [
    [null, false],
    [login, true],
  ] as const) {
    const context = await site.browser.newContext({ storageState: (state ?? undefined) as never });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto(url);
    t.match(
      await site.driver.loginState(page, { settings }),
      { loggedIn },
      `logged in: ${loggedIn}`,
    );
  }
}

/** The page build later loads of the replica's chat page get (replicas/common/page-variant.ts). */
export async function pageVariant(replicaUrl: string, variant: string): Promise<void> {
  const r = await fetch(`${replicaUrl}/__replica/page-variant`, {
    method: 'POST',
    body: JSON.stringify({ variant }),
  });
  if (!r.ok) throw new Error(`page variant ${variant}: HTTP ${r.status}`);
}

/**
 * The walls every site shows the same way: a 401 on the chat call after the
 * page showed the logged-in chat (the session died, not a login wall), and
 * a logged-out page or a session the site no longer takes (a login wall).
 */
export const sessionWalls = (expired: StorageState): Wall[] => [
  ['#replica:login_wall', undefined, /^session_expired: HTTP 401 on the chat call/, 'needs_human'],
  ['#replica:expired', undefined, /^session_expired: HTTP 401 on the chat call/, 'needs_human'],
  ['', null, /^login wall: /, 'needs_human'],
  ['', expired, /^login wall: /, 'needs_human'],
];
