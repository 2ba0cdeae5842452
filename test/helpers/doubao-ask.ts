/**
 * Asking the Doubao driver on a replica's chat page, opened as the executor
 * opens it (the account's storage state, the real CDP capture); whatever is
 * not the replica is blocked, so nothing leaves this machine.
 */
import type { Browser, BrowserContext, Page } from 'playwright';
import { doubaoWeb } from '../../crawler/platforms/doubao/web/index.js';
import {
  PlatformError,
  type Job,
  type PlatformSettings,
  type WebAnswer,
  type WebContext,
} from '../../crawler/platforms/types.js';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import type { Mode } from '../../services/shared/platforms.js';
import type { DoubaoReplica } from '../../replicas/doubao/server.js';
import { webContext } from './web-context.js';

export interface Run {
  answer?: WebAnswer;
  error?: PlatformError;
  /** How long the driver took. */
  ms: number;
  ctx: WebContext;
  page: Page;
  context: BrowserContext;
}

export function doubaoAsker(
  t: { fail(m: string): unknown },
  browser: Browser,
  replica: DoubaoReplica,
) {
  const settings: PlatformSettings = { apiBaseUrl: '', webUrl: replica.url, timeoutMs: 30_000 };

  async function open(state: StorageState | null): Promise<BrowserContext> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      ...(state ? { storageState: state as never } : {}),
    });
    // The answers' icons and covers live on the real CDNs: nothing leaves this machine.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (r) => r.abort());
    return context;
  }

  /** Opens the chat page and lets the driver ask; `state` null: a visitor without a session. */
  async function ask(
    prompt: string,
    mode: Mode,
    state: StorageState | null = replica.storageState(),
    before?: (page: Page) => Promise<void>,
  ): Promise<Run> {
    const context = await open(state);
    const page = await context.newPage();
    page.on('pageerror', (e) => t.fail(`page error: ${e.message}`));
    const ctx = await webContext(page, settings);
    const job: Job = { prompt, mode, signal: AbortSignal.timeout(30_000) };
    await page.goto(doubaoWeb.startUrl(job, ctx));
    if (before) await before(page);
    const started = Date.now();
    try {
      const answer = await doubaoWeb.ask(page, job, ctx);
      return { answer, ms: Date.now() - started, ctx, page, context };
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      return { error: err, ms: Date.now() - started, ctx, page, context };
    }
  }

  return { settings, open, ask };
}
