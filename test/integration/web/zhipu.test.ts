/**
 * The ChatGLM web driver in real Chromium against the replica of
 * chatglm.cn, for the site's own quirks (the site contract runs the
 * common drifts and the stream variants): every mode through the page's
 * own controls gives the exact fields of the LAST cumulative snapshot, the
 * request's `meta_data` asking it, the page's model label and the format
 * that answered; a stream that never finishes is judged by the page; the
 * site's one live stream per account refuses a second chat call while the
 * first streams (the account cools briefly); every wall is its named
 * outcome within seconds; the replica refuses a chat call its page did not
 * sign, or signed wrong.
 */
import t, { type Test } from 'tap';
import type { BrowserContext, Page } from 'playwright';
import { testBrowser } from '../../helpers/chromium.js';
import { webContext } from '../../helpers/web-context.js';
import { zhipuWeb } from '../../../crawler/platforms/zhipu/web/index.js';
import {
  PlatformError,
  type Job,
  type PlatformSettings,
  type WebAnswer,
  type WebContext,
} from '../../../crawler/platforms/types.js';
import { MODES, type Mode } from '../../../services/shared/platforms.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { expectedWebAnswer } from '../../../replicas/zhipu/expected.js';
import { startZhipuReplica, type ZhipuReplica } from '../../../replicas/zhipu/server.js';

t.setTimeout(240_000);

const replica = await startZhipuReplica({ latencyMs: 3 });
t.teardown(() => replica.close());
const browser = await testBrowser(t, replica);
const settingsOf = (r: ZhipuReplica): PlatformSettings => ({
  apiBaseUrl: '',
  webUrl: r.url,
  timeoutMs: 30_000,
});
const settings = settingsOf(replica);
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
  o: { state?: StorageState | null; on?: ZhipuReplica } = {},
): Promise<Run> {
  const on = o.on ?? replica;
  const s = settingsOf(on);
  const state = o.state === undefined ? on.storageState() : o.state;
  const context = await browser.newContext({
    storageState: (state ?? undefined) as never,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1280, height: 900 },
  });
  t.teardown(() => context.close());
  const page = await context.newPage();
  page.on('pageerror', (e) => t.fail(`page error: ${e.message}`));
  const ctx = await webContext(page, s);
  await page.goto(zhipuWeb.startUrl(j, { settings: s }));
  return { context, page, ctx, result: zhipuWeb.ask(page, j, ctx) };
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

const sentBody = (run: Run) => {
  const request = run.ctx.evidence.list().find((e) => e.kind === 'request');
  return JSON.parse((request as { body: string }).body) as {
    meta_data: { chat_mode?: string; is_networking?: boolean };
  };
};

t.test('every mode through the page controls: the last snapshot exactly, as asked', async (t) => {
  const prompt = '智能家居品牌';
  for (const mode of MODES) {
    const run = await ask(t, job(prompt, mode));
    t.same(await run.result, expectedWebAnswer(prompt, mode), `${mode}: the fields`);
    const { meta_data: meta } = sentBody(run);
    const think = mode === 'reasoning' || mode === 'reasoning_search';
    const search = mode === 'search' || mode === 'reasoning_search';
    t.equal(meta.chat_mode === 'zero', think, `${mode}: chat_mode asked`);
    t.equal(meta.is_networking, search, `${mode}: is_networking asked`);
    const frames = run.ctx.evidence.list().filter((e) => e.kind === 'frame').length;
    t.ok(frames > 10, `${mode}: ${frames} snapshots read, one answer kept`);
    t.equal(
      await run.page.getByRole('complementary', { name: '参考来源' }).isVisible(),
      search,
      `${mode}: the sources panel open for the screenshot`,
    );
    await run.context.close();
  }
});

t.test('a stream without its finish frame: the page judges the end', async (t) => {
  const prompt = '扫地机器人 #replica:no_end';
  const run = await ask(t, job(prompt, 'search'));
  const answer = await run.result;
  t.same(answer.answerContent, expectedWebAnswer(prompt, 'search').answerContent);
  t.ok(
    run.ctx.evidence.list().some((e) => e.kind === 'note' && /no end marker/.test(e.text)),
    'the evidence says the page judged it',
  );
});

t.test(
  'one live stream per account: a second chat call while one streams is refused',
  async (t) => {
    // Slow frames, so the first stream is still running when the second page asks.
    const slow = await startZhipuReplica({ latencyMs: 250 });
    t.teardown(() => slow.close());
    // One account: both pages carry the same login.
    const state = slow.storageState();
    const first = await ask(t, job('空气净化器', 'reasoning_search'), { on: slow, state });
    for (const until = Date.now() + 20_000; slow.asked.length === 0 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    const second = await ask(t, job('空气净化器', 'search'), { on: slow, state });
    const err = await failure(second.result);
    t.match(err, {
      message: /^rate or quota limit on zhipu: one live stream per account/,
      retryAfterSeconds: 60,
      account: { state: 'cooling' },
    });
    t.same(
      await first.result,
      expectedWebAnswer('空气净化器', 'reasoning_search'),
      'the first answers',
    );
    t.equal(slow.refusedBusy, 1, 'the site refused exactly the second');
  },
);

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
    // The refresh token the site no longer takes (40102): the page shows 登录.
    ['', replica.expiredStorageState(), /^login wall: /, 'needs_human'],
    ['#replica:captcha', undefined, /^captcha: /, 'needs_human'],
    ['#replica:rate_limit', undefined, /^rate or quota limit on zhipu/, 'cooling'],
    [
      '#replica:quota',
      undefined,
      /^rate or quota limit on zhipu: 10014 今日对话次数已达上限/,
      'cooling',
    ],
    ['#replica:busy', undefined, /^rate or quota limit on zhipu: one live stream/, 'cooling'],
  ];
  for (const [directive, state, message, account] of cases) {
    const started = Date.now();
    const run = await ask(t, job(`保险 ${directive}`, 'standard'), { state });
    const err = await failure(run.result);
    t.match(
      err,
      { message, account: { state: account } },
      `${directive || 'logged out'}: ${err.message}`,
    );
    t.ok(Date.now() - started < 10_000, `within seconds (${Date.now() - started} ms)`);
    await run.context.close();
  }
  const refusal = await ask(t, job('保险 #replica:refusal', 'standard'));
  t.match(await failure(refusal.result), {
    message: /zhipu refused to answer/,
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
    await page.goto(zhipuWeb.loginUrl({ settings }));
    t.match(await zhipuWeb.loginState(page, { settings }), { loggedIn }, `logged in: ${loggedIn}`);
  }
});

t.test('the replica refuses a chat call its page did not sign, or signed wrong', async (t) => {
  const cookie = replica
    .storageState()
    .cookies.map((c) => `${c.name}=${c.value}`)
    .join('; ');
  const refreshed = await fetch(`${replica.url}/chatglm/user-api/user/refresh`, {
    method: 'POST',
    headers: { cookie },
  });
  const { result } = (await refreshed.json()) as { result: { access_token: string } };
  const call = (headers: Record<string, string>) =>
    fetch(`${replica.url}/chatglm/backend-api/assistant/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${result.access_token}`, ...headers },
      body: '{}',
    });
  const unsigned = await call({});
  t.equal(unsigned.status, 400);
  t.match(await unsigned.json(), { message: 'unsigned request' });
  const forged = await call({ 'x-timestamp': String(Date.now()), 'x-nonce': 'n1', 'x-sign': 'f' });
  t.match(await forged.json(), { message: 'bad signature' });
});
