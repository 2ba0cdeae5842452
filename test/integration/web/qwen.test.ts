/**
 * Qwen's own quirks, in real Chromium against the replicas of its two sites
 * (the site contract runs the common drifts and stream variants on
 * chat.qwen.ai's): both public protocols answer exactly, each recording the
 * format that answered (`qwen-2026`, `qwen-2025`, the domestic
 * `tongyi-legacy`), every mode set through the page's controls and
 * confirmed by the request; the WAF's HTML page is a named `captcha` or
 * `blocked` outcome, never a parse error, and every other wall its named
 * outcome within seconds; the replica refuses a call its page did not sign.
 */
import t, { type Test } from 'tap';
import type { Page } from 'playwright';
import { testBrowser } from '../../helpers/chromium.js';
import { webContext } from '../../helpers/web-context.js';
import { jobOf, settingsOf, failure, sentBody } from '../../helpers/driver-runs.js';
import { replicaContext } from '../../helpers/web-sites.js';
import { qwenWeb } from '../../../crawler/platforms/qwen/web/index.js';
import type { Job, WebAnswer, WebContext } from '../../../crawler/platforms/types.js';
import { MODES } from '../../../services/shared/platforms.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { expectedWebAnswer, type Format } from '../../../replicas/qwen/expected.js';
import { startQwenReplica, type QwenReplica } from '../../../replicas/qwen/server.js';

t.setTimeout(240_000);

const intl = await startQwenReplica({ latencyMs: 2 });
const domestic = await startQwenReplica({ latencyMs: 2, site: 'domestic' });
const browser = await testBrowser(t, intl, domestic);

interface Run {
  page: Page;
  ctx: WebContext;
  result: Promise<WebAnswer>;
}

/** One ask on a fresh page of the replica, as `state` (default: its logged-in account). */
async function ask(
  t: Test,
  replica: QwenReplica,
  j: Job,
  state: StorageState | null = replica.storageState(),
): Promise<Run> {
  const settings = settingsOf(replica.url);
  const context = state
    ? await replicaContext(browser, state)
    : await browser.newContext({ locale: 'zh-CN' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  page.on('pageerror', (e) => t.fail(`page error: ${e.message}`));
  const ctx = await webContext(page, settings);
  await page.goto(qwenWeb.startUrl(j, { settings }));
  return { page, ctx, result: qwenWeb.ask(page, j, ctx) };
}

t.test('both protocols, every mode: the exact fields and the format that answered', async (t) => {
  const sites: [QwenReplica, string, Format][] = [
    [intl, '', 'qwen-2026'],
    [intl, ' #replica:old_format', 'qwen-2025'],
    [domestic, '', 'tongyi-legacy'],
  ];
  for (const [replica, directive, format] of sites)
    for (const mode of MODES) {
      const prompt = `露营装备${directive}`;
      const run = await ask(t, replica, jobOf(prompt, mode));
      t.same(await run.result, expectedWebAnswer(prompt, mode, format), `${format} ${mode}`);
      const body = sentBody(run);
      const think = mode === 'reasoning' || mode === 'reasoning_search';
      const search = mode === 'search' || mode === 'reasoning_search';
      if (format === 'tongyi-legacy')
        t.match(body, { params: { deepThink: think, searchType: search ? 'web' : '' } });
      else
        t.match(body, {
          messages: [
            { chat_type: search ? 'search' : 't2t', feature_config: { thinking_enabled: think } },
          ],
        });
      t.equal(
        await run.page.getByRole('complementary', { name: '搜索来源' }).isVisible(),
        search,
        `${format} ${mode}: the sources panel open for the screenshot`,
      );
    }
});

t.test('walls, the WAF and limits: each its named outcome within seconds', async (t) => {
  const cases: [
    QwenReplica,
    string,
    StorageState | null | undefined,
    RegExp,
    string | undefined,
  ][] = [
    [intl, '#replica:captcha', undefined, /^captcha: the WAF's slider page/, 'needs_human'],
    [intl, '#replica:blocked', undefined, /^blocked: the WAF refused the chat call/, 'needs_human'],
    [intl, '#replica:risk_control', undefined, /^blocked: the site's risk control/, 'needs_human'],
    [
      intl,
      '#replica:expired',
      undefined,
      /^session_expired: HTTP 401 on the chat call/,
      'needs_human',
    ],
    [intl, '', null, /^login wall: /, 'needs_human'],
    [intl, '', intl.expiredStorageState(), /^login wall: /, 'needs_human'],
    [
      intl,
      '#replica:rate_limit',
      undefined,
      /^rate or quota limit on qwen: RateLimited/,
      'cooling',
    ],
    [intl, '#replica:quota', undefined, /^rate or quota limit on qwen: quota: /, 'cooling'],
    [intl, '#replica:refusal', undefined, /^qwen refused to answer/, undefined],
    [domestic, '#replica:captcha', undefined, /^captcha: the WAF's slider page/, 'needs_human'],
    [domestic, '', domestic.expiredStorageState(), /^login wall: /, 'needs_human'],
    [domestic, '#replica:refusal', undefined, /^qwen refused to answer/, undefined],
  ];
  for (const [replica, directive, state, message, account] of cases) {
    const started = Date.now();
    const run = await ask(t, replica, jobOf(`保险 ${directive}`, 'standard'), state);
    const err = await failure(run.result);
    const who = directive || (state === null ? 'logged out' : 'an expired session');
    const label = `${replica === intl ? 'intl' : 'domestic'} ${who}`;
    t.match(err.message, message, `${label}: ${err.message}`);
    t.equal(err.account?.state, account, `${label}: the account`);
    t.ok(Date.now() - started < 10_000, `${label}: within seconds (${Date.now() - started} ms)`);
  }
});

t.test('the replica answers a call its page did not sign with the WAF page', async (t) => {
  const r = await fetch(`${intl.url}/api/v2/chat/completions?chat_id=x`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${intl.storageState().origins[0]!.localStorage[0]!.value}`,
      'content-type': 'application/json',
    },
    body: '{"messages":[{"content":"x"}]}',
  });
  t.equal(r.status, 200);
  t.match(r.headers.get('content-type'), /text\/html/);
  t.match(await r.text(), /滑块/);
});
