/**
 * Yiyan's own quirks, in real Chromium against the replica of
 * yiyan.baidu.com (the site contract runs every mode, drift and stream
 * variant): the page makes the chat call with the `Acs-Token` it computes
 * from inputs that change irregularly, so a kept page answers across changes
 * while a call the page did not make (no token, a replayed one, one from
 * inputs no longer given) is refused; the model picker is the way to the
 * thinking model on a build without the 深度思考 chip, its label the model
 * the page names; a build without 联网搜索 fails a search in seconds; and
 * every wall is its named outcome: Baidu's passport layer and page, an
 * expired session, the slider and the rotating-image verification, the rate
 * limit, the daily quota, a refusal.
 */
import t, { type Test } from 'tap';
import type { Page } from 'playwright';
import { testBrowser } from '../../helpers/chromium.js';
import { webContext } from '../../helpers/web-context.js';
import { jobOf, settingsOf, sentBody, pageVariant } from '../../helpers/driver-runs.js';
import { replicaContext } from '../../helpers/web-sites.js';
import { wenxinWeb } from '../../../crawler/platforms/wenxin/web/index.js';
import { untilBeijingMidnight } from '../../../crawler/platforms/wenxin/web/envelope.js';
import {
  PlatformError,
  type Job,
  type WebAnswer,
  type WebContext,
} from '../../../crawler/platforms/types.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { expectedWebAnswer } from '../../../replicas/wenxin/expected.js';
import type { PageVariant } from '../../../replicas/wenxin/pages.js';
import { startWenxinReplica } from '../../../replicas/wenxin/server.js';

t.setTimeout(240_000);

const replica = await startWenxinReplica({ latencyMs: 3 });
const passport = await startWenxinReplica({ latencyMs: 3, passportPage: true });
const browser = await testBrowser(t, replica, passport);
const settings = settingsOf(replica.url);

const useVariant = (variant: PageVariant) => pageVariant(replica.url, variant);

/** A page of one account, at the start page, the capture armed. */
async function openPage(t: Test, state: StorageState, s = settings): Promise<Page> {
  const context = await replicaContext(browser, state);
  t.teardown(() => context.close());
  const page = await context.newPage();
  page.on('pageerror', (e) => t.fail(`page error: ${e.message}`));
  await page.goto(wenxinWeb.startUrl(jobOf('x', 'standard'), { settings: s }));
  return page;
}

async function askOn(
  page: Page,
  j: Job,
  s = settings,
): Promise<{ answer?: WebAnswer; error?: PlatformError; ctx: WebContext; ms: number }> {
  const ctx = await webContext(page, s);
  const started = Date.now();
  try {
    return { answer: await wenxinWeb.ask(page, j, ctx), ctx, ms: Date.now() - started };
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    return { error: err, ctx, ms: Date.now() - started };
  } finally {
    await ctx.capture.close();
  }
}

const cookieHeader = (state: StorageState) =>
  state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

async function call(headers: Record<string, string>, body: unknown) {
  const r = await fetch(`${replica.url}/eb/chat/conversation/v2`, {
    method: 'POST',
    headers: {
      cookie: cookieHeader(replica.storageState()),
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return {
    type: r.headers.get('content-type') ?? '',
    body: (await r.json()) as { code: number; msg: string },
  };
}

t.test(
  'only the page makes the call: its Acs-Token answers across changes, no other does',
  async (t) => {
    const page = await openPage(t, replica.storageState());
    const first = await askOn(page, jobOf('文心一言的搜索', 'search'));
    t.same(first.answer, expectedWebAnswer('文心一言的搜索', 'search'), 'the exact answer');
    t.ok(
      await page.getByRole('complementary', { name: '参考资料' }).isVisible(),
      'the sources panel left open for the screenshot',
    );
    const sent = sentBody(first);
    t.match(
      sent,
      { model: 'EB45T', search: 1, sign: /^\d+:\d+:[0-9a-f]{64}$/ },
      'the page signed it',
    );

    // The page's own token again, at once: good once only.
    const again = await call({ 'Acs-Token': String(sent.sign) }, sent);
    t.match(again.body, { code: 4010, msg: /replayed Acs-Token/ }, 'a replayed token is refused');

    // The inputs change twice: the page's next call uses what the site hands out then.
    replica.rotateAcs();
    replica.rotateAcs();
    t.equal(await wenxinWeb.newChat!(page, { settings, evidence: first.ctx.evidence }), 'control');
    const second = await askOn(page, jobOf('百家号的文章', 'reasoning'));
    t.same(second.answer, expectedWebAnswer('百家号的文章', 'reasoning'), 'after the change too');

    const refused = replica.refused.length;
    const replay = await call({ 'Acs-Token': String(sent.sign) }, sent);
    t.match(replay.body, { code: 4010, msg: /Acs-Token 校验失败/ }, 'an old call is refused');
    t.notMatch(replay.type, /event-stream/);
    const none = await call({}, { ...sent, sign: undefined, timestamp: Date.now() });
    t.match(none.body, { code: 4010 }, 'a call without a token is refused');
    const forged = `${String(sent.sign).split(':')[0]}:${Date.now()}:${'0'.repeat(64)}`;
    const stale = await call({ 'Acs-Token': forged }, { ...sent, sign: forged });
    t.match(stale.body, { code: 4010 }, 'a token from inputs no longer given is refused');
    t.same(replica.refused.slice(refused), [
      'Acs-Token made from inputs no longer given',
      'no Acs-Token',
      'Acs-Token made from inputs no longer given',
    ]);
  },
);

t.test(
  'a build without the chip: the thinking model through the picker, its label named',
  async (t) => {
    await useVariant('model_menu');
    t.teardown(() => useVariant('default'));
    const page = await openPage(t, replica.storageState());
    const r = await askOn(page, jobOf('文心X1的推理', 'reasoning_search'));
    t.same(r.answer, expectedWebAnswer('文心X1的推理', 'reasoning_search'));
    t.equal(r.answer?.modelReported, '文心X1 Turbo');
    t.match(sentBody(r), { model: 'X1T', search: 1 });
    await wenxinWeb.newChat!(page, { settings, evidence: r.ctx.evidence });
    const off = await askOn(page, jobOf('文心4.5的回答', 'standard'));
    t.same(off.answer, expectedWebAnswer('文心4.5的回答', 'standard'), 'and back off');
    t.equal(off.answer?.modelReported, '文心4.5 Turbo');
  },
);

t.test('a build without 联网搜索: a search fails in seconds, naming the control', async (t) => {
  await useVariant('no_search');
  t.teardown(() => useVariant('default'));
  const page = await openPage(t, replica.storageState());
  const r = await askOn(page, jobOf('没有搜索', 'search'));
  t.equal(r.error?.message, 'control_missing: wenxin web-search');
  t.ok(r.ms < 5_000, `in ${r.ms} ms`);
});

t.test('every wall is its named outcome, with its evidence', async (t) => {
  const cases: [string, StorageState, RegExp, Record<string, unknown>][] = [
    [
      '#replica:login_wall',
      replica.storageState(),
      /^login wall: (4001 请先登录|the page shows a login dialog)/,
      { kind: 'login_wall' },
    ],
    [
      '',
      replica.expiredStorageState(),
      /^login wall: the page is logged out/,
      { kind: 'login_wall' },
    ],
    [
      '#replica:expired',
      replica.storageState(),
      /^session_expired: 4002 登录已失效/,
      { kind: 'session_expired' },
    ],
    [
      '#replica:captcha',
      replica.storageState(),
      /^(slider_captcha: 2001 请完成安全验证|captcha: 百度安全验证 请拖动滑块完成拼图)/,
      { kind: 'verification' },
    ],
    [
      '#replica:rotate_captcha',
      replica.storageState(),
      /^(rotate_captcha: 2001 请完成安全验证|captcha: 百度安全验证 请拖动滑块，旋转图片)/,
      { kind: 'verification' },
    ],
    [
      '#replica:rate_limit',
      replica.storageState(),
      /^rate or quota limit on wenxin: 4005 当前提问人数过多/,
      { state: 'cooling' },
    ],
    [
      '#replica:quota',
      replica.storageState(),
      /^rate or quota limit on wenxin: quota: 4006 今日对话次数已达上限/,
      { state: 'cooling' },
    ],
    ['#replica:refusal', replica.storageState(), /^wenxin refused to answer: 抱歉/, {}],
  ];
  // The call's answer or the page's layer, whichever the driver sees first: both name the wall.
  for (const [directive, state, message, account] of cases) {
    const page = await openPage(t, state);
    const r = await askOn(page, jobOf(`墙 ${directive}`.trim(), 'standard'));
    t.match(r.error?.message, message, `${directive || 'logged out'}: ${r.error?.message}`);
    if (Object.keys(account).length > 0)
      t.match(r.error?.account, { state: 'needs_human', ...account }, `${directive}: the account`);
    else t.equal(r.error?.account, undefined, `${directive}: the account stays healthy`);
    t.ok(r.ms < 10_000, `${directive}: in ${r.ms} ms`);
    if (directive === '#replica:quota')
      t.ok(
        Math.abs((r.error?.retryAfterSeconds ?? 0) - untilBeijingMidnight()) < 60,
        'cools until midnight in Beijing',
      );
    await page.context().close();
  }
  const page = await openPage(t, passport.expiredStorageState(), settingsOf(passport.url));
  const r = await askOn(page, jobOf('护照页', 'standard'), settingsOf(passport.url));
  t.match(
    r.error?.message,
    /^login wall: the site shows its sign-in page \(\/passport\/login\)/,
    "Baidu's passport page",
  );
});

t.test(
  'QR login: a logged-out page needs a login until the Baidu app confirms the scan',
  async (t) => {
    const context = await replicaContext(browser, { cookies: [], origins: [] });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const s = { settings };
    await page.goto(wenxinWeb.loginUrl(s));
    t.match(await wenxinWeb.loginState(page, s), { loggedIn: false, reason: /login wall/ });
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page
      .frameLocator('iframe[title="百度App扫码登录"]')
      .getByRole('img', { name: '百度App扫码登录二维码' })
      .waitFor();
    t.match(await wenxinWeb.loginState(page, s), { loggedIn: false, reason: /login dialog/ });
    await fetch(`${replica.url}/__replica/login`, { method: 'POST' });
    await page.waitForEvent('load');
    t.same(await wenxinWeb.loginState(page, s), { loggedIn: true });
    const names = (await context.cookies()).map((c) => c.name).sort();
    t.same(names, ['BAIDUID', 'BDUSS_BFESS']);
  },
);
