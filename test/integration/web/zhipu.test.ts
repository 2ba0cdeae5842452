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
import { testBrowser } from '../../helpers/chromium.js';
import {
  jobOf,
  settingsOf,
  failure,
  type SitePages,
  askOn,
  sentBody,
  everyMode,
  checkWalls,
  sessionWalls,
  checkRefusal,
  checkLoginStates,
  type Wall,
} from '../../helpers/driver-runs.js';
import { zhipuWeb } from '../../../crawler/platforms/zhipu/web/index.js';
import type { Job } from '../../../crawler/platforms/types.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { expectedWebAnswer } from '../../../replicas/zhipu/expected.js';
import { startZhipuReplica, type ZhipuReplica } from '../../../replicas/zhipu/server.js';

t.setTimeout(240_000);

const replica = await startZhipuReplica({ latencyMs: 3 });
t.teardown(() => replica.close());
const browser = await testBrowser(t, replica);
const settings = settingsOf(replica.url);

const site: SitePages = { browser, driver: zhipuWeb, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' };
/** One ask on a fresh page of `on` (default: the replica), as `state` (default: a new account). */
const ask = (t: Test, j: Job, state?: StorageState | null, on: ZhipuReplica = replica) =>
  askOn(t, site, settingsOf(on.url), j, state === undefined ? on.storageState() : state);

t.test('every mode through the page controls: the last snapshot exactly, as asked', async (t) => {
  await everyMode(t, ask, '智能家居品牌', expectedWebAnswer, async (run, mode) => {
    const { meta_data: meta } = sentBody<{
      meta_data: { chat_mode?: string; is_networking?: boolean };
    }>(run);
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
  });
});

t.test('a stream without its finish frame: the page judges the end', async (t) => {
  const prompt = '扫地机器人 #replica:no_end';
  const run = await ask(t, jobOf(prompt, 'search'));
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
    const first = await ask(t, jobOf('空气净化器', 'reasoning_search'), state, slow);
    for (const until = Date.now() + 20_000; slow.asked.length === 0 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    const second = await ask(t, jobOf('空气净化器', 'search'), state, slow);
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
  const cases: Wall[] = [
    // The dead session: a refresh token the site no longer takes (40102), the page shows 登录.
    ...sessionWalls(replica.expiredStorageState()),
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
  await checkWalls(t, ask, '保险', cases);
  await checkRefusal(t, ask, '保险', /zhipu refused to answer/);
});

t.test('a logged-out page needs a person; the imported login is logged in', async (t) => {
  const login = zhipuWeb.loginUrl({ settings });
  await checkLoginStates(t, site, replica.storageState(), login, settings);
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
