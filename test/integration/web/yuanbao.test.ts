/**
 * The Yuanbao web driver in real Chromium against the replica of
 * yuanbao.tencent.com: every mode through the page's own controls gives the
 * exact fields the stream carries (WeChat articles among the sources), with
 * Hunyuan or DeepSeek inside Yuanbao; the page's drift (hashed classes,
 * controls as other widgets, a control gone) and the stream's (sources only
 * in the detail, an unknown frame, no end; the site contract runs the other
 * stream variants) either answer exactly or fail within seconds with a named drift
 * signal; every wall is its named outcome within seconds; the QR login sets
 * the site's cookies; the replica refuses a chat call the page did not sign.
 */
import t, { type Test } from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import {
  jobOf,
  settingsOf,
  failure,
  type SitePages,
  askOn,
  openPage,
  sentBody,
  everyMode,
  checkWalls,
  sessionWalls,
  checkRefusal,
  type Wall,
  pageVariant,
} from '../../helpers/driver-runs.js';
import { yuanbaoWeb } from '../../../crawler/platforms/yuanbao/web/index.js';
import type { Job, PlatformSettings } from '../../../crawler/platforms/types.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { expectedWebAnswer } from '../../../replicas/yuanbao/expected.js';
import type { PageVariant } from '../../../replicas/yuanbao/pages.js';
import { startYuanbaoReplica } from '../../../replicas/yuanbao/server.js';

t.setTimeout(240_000);

const replica = await startYuanbaoReplica({ latencyMs: 3 });
const browser = await testBrowser(t, replica);
const settings = settingsOf(replica.url);
const site: SitePages = {
  browser,
  driver: yuanbaoWeb,
  locale: 'zh-CN',
  timezoneId: 'Asia/Shanghai',
};

const useVariant = (variant: PageVariant) => pageVariant(replica.url, variant);

/** One ask on a fresh page, as `state` (default: the replica's account), with the operator's settings `s`. */
const ask = (
  t: Test,
  j: Job,
  state: StorageState | null = replica.storageState(),
  s: PlatformSettings = settings,
) => askOn(t, site, s, j, state);

t.test(
  'every mode through the page controls: the exact fields, the request they made',
  async (t) => {
    await everyMode(t, ask, '微信小程序开发', expectedWebAnswer, async (run, mode) => {
      const body = sentBody(run);
      const think = mode === 'reasoning' || mode === 'reasoning_search';
      t.equal(
        body.chatModelId,
        think ? 'hunyuan_t1' : 'hunyuan_gpt_175B_0404',
        `${mode}: model id`,
      );
      t.equal(
        Array.isArray(body.supportFunctions) &&
          body.supportFunctions.includes('supportInternetSearch'),
        mode === 'search' || mode === 'reasoning_search',
        `${mode}: search asked`,
      );
      const drawer = await run.page.getByRole('complementary', { name: '参考资料' }).isVisible();
      t.equal(
        drawer,
        mode === 'search' || mode === 'reasoning_search',
        `${mode}: sources drawer open`,
      );
    });
  },
);

t.test(
  'DeepSeek inside Yuanbao, chosen in the model picker when the operator asks for it',
  async (t) => {
    const s = { ...settings, models: { reasoning_search: 'deepseek' } };
    const run = await ask(t, jobOf('跨境电商', 'reasoning_search'), undefined, s);
    t.same(await run.result, expectedWebAnswer('跨境电商', 'reasoning_search', 'deepseek'));
    t.equal(sentBody(run).chatModelId, 'deep_seek');
    t.equal(
      await run.page.getByRole('button', { name: 'DeepSeek' }).count(),
      1,
      'the picker shows it',
    );
  },
);

t.test('page drift: every build answers exactly, standard mode needs no control', async (t) => {
  t.teardown(() => useVariant('default'));
  for (const variant of ['hashed', 'switch', 'merged'] as const) {
    await useVariant(variant);
    for (const mode of ['reasoning_search', 'standard'] as const) {
      const run = await ask(t, jobOf('露营装备', mode));
      t.same(await run.result, expectedWebAnswer('露营装备', mode), `${variant} ${mode}`);
      await run.context.close();
    }
  }
  await useVariant('no_search');
  const plain = await ask(t, jobOf('露营装备', 'reasoning'));
  t.same(
    await plain.result,
    expectedWebAnswer('露营装备', 'reasoning'),
    'no_search: reasoning needs no search control',
  );
  // From the opened page, as the site contract measures: the page's own load is not the driver's.
  const run = await ask(t, jobOf('露营装备', 'search'));
  const started = Date.now();
  const err = await failure(run.result);
  t.match(err, {
    message: 'control_missing: yuanbao web-search',
    retryable: false,
    account: undefined,
  });
  t.ok(
    Date.now() - started < 5_000,
    `the missing control fails within 5 s (${Date.now() - started} ms)`,
  );
  t.match(
    run.ctx.evidence.list().find((e) => e.kind === 'note' && e.text.startsWith('control_missing')),
    { text: /control_missing.*<html/s },
  );
});

// The stream variants (STREAM_VARIANTS) run in the site contract; here the site's own quirks.
t.test('stream drift: exact answers, or a named drift signal within seconds', async (t) => {
  const detail = await ask(t, jobOf('咖啡机 #replica:no_sources', 'search'));
  t.same(await detail.result, expectedWebAnswer('咖啡机 #replica:no_sources', 'search'));
  t.ok(
    detail.ctx.evidence.list().some((e) => e.kind === 'note' && /conversation detail/.test(e.text)),
    'the sources came from the conversation detail',
  );
  await detail.context.close();
  // A frame type no format names, carrying text the page does not show: the witnesses agree.
  const unknown = await ask(t, jobOf('咖啡机 #replica:unknown_frame', 'standard'));
  t.same(await unknown.result, expectedWebAnswer('咖啡机 #replica:unknown_frame', 'standard'));
  t.ok(
    unknown.ctx.evidence
      .list()
      .some((e) => e.kind === 'note' && /frame type "card" .*but the page agrees/.test(e.text)),
    'its text is noted as not applied, the page agreeing',
  );
  await unknown.context.close();
  const cut = await ask(t, jobOf('咖啡机 #replica:no_end', 'standard'));
  t.same(await cut.result, expectedWebAnswer('咖啡机 #replica:no_end', 'standard'), 'no [DONE]');
  t.ok(
    cut.ctx.evidence.list().some((e) => e.kind === 'note' && /no end marker/.test(e.text)),
    'the page judged the end',
  );
});

t.test('every wall is its named outcome within seconds', async (t) => {
  const cases: Wall[] = [
    ...sessionWalls(replica.expiredStorageState()),
    ['#replica:captcha', undefined, /^captcha: /, 'needs_human'],
    ['#replica:location_verify', undefined, /^location_verification: /, 'needs_human'],
    ['#replica:rate_limit', undefined, /^rate or quota limit on yuanbao/, 'cooling'],
  ];
  await checkWalls(t, ask, '保险', cases);
  await checkRefusal(t, ask, '保险', /yuanbao refused to answer/);
});

t.test(
  'QR login: a logged-out page is needs-login until the scan sets the site cookies',
  async (t) => {
    const { context, page } = await openPage(t, site, null);
    const s = { settings };
    await page.goto(yuanbaoWeb.loginUrl(s));
    t.match(await yuanbaoWeb.loginState(page, s), { loggedIn: false, reason: /login wall/ });
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page
      .frameLocator('iframe[title="微信登录二维码"]')
      .getByRole('img', { name: '微信登录二维码' })
      .waitFor();
    await fetch(`${replica.url}/__replica/login`, { method: 'POST' });
    await page.waitForEvent('load');
    t.same(await yuanbaoWeb.loginState(page, s), { loggedIn: true });
    const names = (await context.cookies()).map((c) => c.name).sort();
    t.same(names, ['hy_source', 'hy_token', 'hy_user']);
  },
);

t.test('the replica refuses a chat call its page did not sign', async (t) => {
  const cookie = replica
    .storageState()
    .cookies.map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
    .join('; ');
  const r = await fetch(`${replica.url}/api/chat/any`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: '{"prompt":"x"}',
  });
  t.equal(r.status, 403);
  t.match(await r.json(), { error: { message: 'unsigned request' } });
});
