/**
 * The Perplexity web driver in real Chromium against the replica of
 * www.perplexity.ai, for the site's own quirks (the site contract runs the
 * common drifts and the stream variants): each mode set through the model
 * picker and the sources menu's Web switch, the request's `params` asking
 * it (`model_preference`, `sources`), the patched blocks read exactly, the
 * model label shown; every wall its named outcome within seconds: a
 * Cloudflare challenge on the answer call a `captcha`, a 401 after the
 * logged-in page `session_expired`, a logged-out page a login wall, a 429
 * and the Pro-search limit in the stream a cooling account, a blocked
 * answer a refusal.
 */
import t, { type Test } from 'tap';
import type { BrowserContext, Page } from 'playwright';
import { testBrowser } from '../../helpers/chromium.js';
import { webContext } from '../../helpers/web-context.js';
import { perplexityWeb } from '../../../crawler/platforms/perplexity/web/index.js';
import {
  PlatformError,
  type Job,
  type PlatformSettings,
  type WebAnswer,
  type WebContext,
} from '../../../crawler/platforms/types.js';
import { MODES, type Mode } from '../../../services/shared/platforms.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { expectedWebAnswer, MODEL_IDS } from '../../../replicas/perplexity/expected.js';
import { startPerplexityReplica } from '../../../replicas/perplexity/server.js';
import { QUOTA_MESSAGE } from '../../../replicas/perplexity/frames.js';

t.setTimeout(240_000);

const replica = await startPerplexityReplica({ latencyMs: 3 });
t.teardown(() => replica.close());
const browser = await testBrowser(t, replica);
const settings: PlatformSettings = { apiBaseUrl: '', webUrl: replica.url, timeoutMs: 30_000 };
const job = (prompt: string, mode: Mode): Job => ({
  prompt,
  mode,
  signal: AbortSignal.timeout(60_000),
});

interface Run {
  context: BrowserContext;
  page: Page;
  ctx: WebContext;
  result: Promise<WebAnswer>;
}

async function ask(
  t: Test,
  j: Job,
  state: StorageState | null = replica.storageState(),
): Promise<Run> {
  const context = await browser.newContext({
    storageState: (state ?? undefined) as never,
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
  });
  t.teardown(() => context.close());
  const page = await context.newPage();
  page.on('pageerror', (e) => t.fail(`page error: ${e.message}`));
  const ctx = await webContext(page, settings);
  await page.goto(perplexityWeb.startUrl(j, { settings }));
  return { context, page, ctx, result: perplexityWeb.ask(page, j, ctx) };
}

async function failure(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof PlatformError) return err;
    throw err;
  }
  throw new Error('expected a PlatformError, got an answer');
}

t.test('every mode through the model picker and the Web switch, exactly as asked', async (t) => {
  const prompt = 'Home batteries';
  for (const mode of MODES) {
    const run = await ask(t, job(prompt, mode));
    t.same(await run.result, expectedWebAnswer(prompt, mode), `${mode}: the fields`);
    const request = run.ctx.evidence.list().find((e) => e.kind === 'request') as { body: string };
    const { params } = JSON.parse(request.body) as {
      params: { model_preference: string; sources: string[] };
    };
    const think = mode === 'reasoning' || mode === 'reasoning_search';
    const search = mode === 'search' || mode === 'reasoning_search';
    t.equal(params.model_preference, think ? MODEL_IDS.on : MODEL_IDS.off, `${mode}: the model`);
    t.same(params.sources, search ? ['web'] : [], `${mode}: the sources`);
    t.equal(
      await run.page.getByRole('complementary', { name: 'Sources' }).isVisible(),
      search,
      `${mode}: the sources panel open for the screenshot`,
    );
    await run.context.close();
  }
});

t.test('every wall is its named outcome within seconds', async (t) => {
  const cases: [string, StorageState | null | undefined, RegExp, string | undefined][] = [
    // A 401 after the page showed the logged-in chat: the session died, not a login wall.
    [
      '#replica:login_wall',
      undefined,
      /^session_expired: HTTP 401 on the chat call/,
      'needs_human',
    ],
    ['#replica:expired', undefined, /^session_expired: HTTP 401 on the chat call/, 'needs_human'],
    ['', null, /^login wall: /, 'needs_human'],
    ['', replica.expiredStorageState(), /^login wall: /, 'needs_human'],
    [
      '#replica:captcha',
      undefined,
      /^captcha: a Cloudflare challenge on the chat call \(HTTP 403\)/,
      'needs_human',
    ],
    [
      '#replica:rate_limit',
      undefined,
      /^rate or quota limit on perplexity: Too many requests/,
      'cooling',
    ],
    [
      '#replica:quota',
      undefined,
      new RegExp(`^rate or quota limit on perplexity: QUERY_LIMIT ${QUOTA_MESSAGE}`),
      'cooling',
    ],
  ];
  for (const [directive, state, message, account] of cases) {
    const started = Date.now();
    const run = await ask(t, job(`Insurance ${directive}`, 'standard'), state);
    const err = await failure(run.result);
    t.match(
      err,
      { message, account: { state: account } },
      `${directive || 'logged out'}: ${err.message}`,
    );
    t.ok(Date.now() - started < 10_000, `within seconds (${Date.now() - started} ms)`);
    await run.context.close();
  }
  const captcha = await ask(t, job('Insurance #replica:captcha', 'search'));
  await failure(captcha.result);
  t.match(
    await captcha.page.getByRole('dialog', { name: 'Security check' }).isVisible(),
    true,
    'the page shows the challenge: never bypassed',
  );
  const refusal = await ask(t, job('Insurance #replica:refusal', 'standard'));
  t.match(await failure(refusal.result), {
    message: /perplexity refused to answer/,
    retryable: false,
    account: undefined,
  });
});

t.test('a logged-out page needs a person; the imported login is logged in', async (t) => {
  for (const [state, loggedIn] of [
    [null, false],
    [replica.storageState(), true],
  ] as const) {
    const context = await browser.newContext({ storageState: (state ?? undefined) as never });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto(perplexityWeb.loginUrl({ settings }));
    t.match(
      await perplexityWeb.loginState(page, { settings }),
      { loggedIn },
      `logged in: ${loggedIn}`,
    );
  }
});
