/**
 * The DeepSeek web driver in real Chromium against the replica of
 * chat.deepseek.com: every mode gives the exact fields the stream carries,
 * the older format too, every variant the right signal and no answer; the
 * evidence holds the request and every frame; the replica refuses a chat call
 * without the page's own proof-of-work.
 */
import t from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import type { BrowserContext, Page } from 'playwright';
import { deepseekWeb } from '../../../crawler/platforms/deepseek/web/index.js';
import type { Job, PlatformSettings, WebAnswer } from '../../../crawler/platforms/types.js';
import type { WebContext } from '../../../crawler/platforms/types.js';
import { MODES, type Mode } from '../../../services/shared/platforms.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { expectedWebAnswer } from '../../../replicas/deepseek/expected.js';
import { chatFrames, type StreamKind } from '../../../replicas/deepseek/frames.js';
import { startDeepseekReplica } from '../../../replicas/deepseek/server.js';
import { webContext } from '../../helpers/web-context.js';
import { failure } from '../../helpers/driver-runs.js';
import { screenshotOf } from '../../../crawler/screenshot.js';

// A dozen and more Chromium runs: room for a busy 2-core machine.
t.setTimeout(300_000);

const replica = await startDeepseekReplica({ latencyMs: 5 });
const browser = await testBrowser(t, replica);

const settings: PlatformSettings = {
  apiBaseUrl: replica.url,
  webUrl: replica.url,
  timeoutMs: 30_000,
};
const job = (prompt: string, mode: Mode, signal = AbortSignal.timeout(60_000)): Job => ({
  prompt,
  mode,
  signal,
});

interface Run {
  context: BrowserContext;
  page: Page;
  ctx: WebContext;
  result: Promise<WebAnswer>;
}

/** Opens the start page as the executor does (the account's storage state), then asks. */
async function ask(
  j: Job,
  state: StorageState | null = replica.storageState(),
  s: PlatformSettings = settings,
): Promise<Run> {
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
  await page.goto(deepseekWeb.startUrl(j, { settings: s }));
  return { context, page, ctx, result: deepseekWeb.ask(page, j, ctx) };
}

/** The fields the replica's stream carries, as the driver must report them. */
const expected = (prompt: string, mode: Mode, formatVersion: string): WebAnswer =>
  expectedWebAnswer(prompt, mode, replica.url, formatVersion);

const bodyOf = (flags: { think: boolean; search: boolean }) => ({
  thinking_enabled: flags.think,
  search_enabled: flags.search,
});
const flagsOf = (mode: Mode) =>
  bodyOf({
    think: mode === 'reasoning' || mode === 'reasoning_search',
    search: mode === 'search' || mode === 'reasoning_search',
  });

t.test(
  'every mode: exact fields, effective mode from the request, every frame in the evidence',
  async (t) => {
    const prompt = '国产 CRM 哪家强';
    for (const mode of MODES) {
      const run = await ask(job(prompt, mode));
      const answer = await run.result;
      t.same(answer, expected(prompt, mode, 'deepseek-2026'), `${mode}: the fields`);

      const entries = run.ctx.evidence.list();
      const request = entries.find((e) => e.kind === 'request');
      t.ok(
        request && request.kind === 'request' && request.url.endsWith('/api/v0/chat/completion'),
      );
      const sent = JSON.parse((request as { body: string }).body) as Record<string, unknown>;
      t.same(
        [sent.thinking_enabled, sent.search_enabled],
        Object.values(flagsOf(mode)),
        `${mode}: request`,
      );
      t.equal(sent.prompt, prompt);
      const frames = entries.flatMap((e) => (e.kind === 'frame' ? [e.data] : []));
      const sentFrames = chatFrames(prompt, mode, flagsOf(mode), '2026', replica.url);
      t.same(
        frames,
        sentFrames.map((f) => f.trimEnd()),
        `${mode}: every frame, in order`,
      );

      const chips = await run.page.$$eval('div.ds-toggle-button', (els) =>
        els.map((e) => [e.textContent?.trim(), e.getAttribute('aria-pressed')]),
      );
      t.same(chips, [
        ['深度思考', String(flagsOf(mode).thinking_enabled)],
        ['智能搜索', String(flagsOf(mode).search_enabled)],
      ]);
      const panelOpen = await run.page.locator('.ds-sources-panel').isVisible();
      t.equal(
        panelOpen,
        answer.referenceList.length > 0,
        `${mode}: sources panel open when there are sources`,
      );
      if (mode === 'reasoning_search') {
        t.equal(await run.page.locator('.ds-source-card').count(), 5);
        t.equal(await run.page.locator('.ds-markdown .ds-markdown-cite').count(), 2);
        t.same(
          answer.citationList.map((r) => [r.index, r.site]),
          [
            [2, '知乎专栏'],
            [5, '百度百科'],
          ],
        );
        t.match(answer.answerContent, /确定回答（[0-9a-f]{8}）。\[2\]/);
        t.equal(answer.reasoningProcess?.summary, `用户问的是「${prompt}」。`);
        const png = await screenshotOf(run.page, { fullPage: true });
        t.ok(png.length > 10_000, 'a real screenshot with the panel');
      }
      await run.context.close();
    }
  },
);

t.test('the older (2025) format: the same fields, named deepseek-2025', async (t) => {
  for (const mode of ['search', 'reasoning_search'] as const) {
    const prompt = '新能源车推荐 #replica:old_format';
    const run = await ask(job(prompt, mode));
    t.same(await run.result, expected(prompt, mode, 'deepseek-2025'), mode);
    await run.context.close();
  }
});

t.test('a stream without its end marker: the page decides completion (DOM fallback)', async (t) => {
  const prompt = '上海天气 #replica:no_end';
  const run = await ask(job(prompt, 'search'));
  t.same(await run.result, expected(prompt, 'search', 'deepseek-2026'));
  t.ok(run.ctx.evidence.list().some((e) => e.kind === 'note' && /no end marker/.test(e.text)));
  const frames = run.ctx.evidence.list().filter((e) => e.kind === 'frame').length;
  t.equal(
    frames,
    chatFrames(prompt, 'search', flagsOf('search'), 'no_end' as StreamKind, replica.url).length,
  );
});

t.test('events after FINISHED (finish, update_session, a notice): the exact answer', async (t) => {
  const prompt = '国产 CRM 哪家强 #replica:late_events';
  for (const mode of ['standard', 'reasoning_search'] as const) {
    const run = await ask(job(prompt, mode));
    t.same(await run.result, expected(prompt, mode, 'deepseek-2026'), `${mode}: the fields`);
    const frames = run.ctx.evidence.list().flatMap((e) => (e.kind === 'frame' ? [e.data] : []));
    t.same(
      frames,
      chatFrames(prompt, mode, flagsOf(mode), 'late_events', replica.url).map((f) => f.trimEnd()),
      `${mode}: the late events are in the evidence`,
    );
    t.ok(frames.includes('event: finish\ndata: {}'));
    await run.context.close();
  }
});

t.test('a silent fallback: deep thinking asked, none streamed, the mode that ran', async (t) => {
  const prompt = '国产 CRM 哪家强 #replica:silent_fallback';
  const run = await ask(job(prompt, 'reasoning_search'));
  const result = await run.result;
  t.same(result, expected(prompt, 'reasoning_search', 'deepseek-2026'), 'the fields that ran');
  t.equal(result.effectiveMode, 'search', 'the stream had search results but no thinking');
  t.ok(
    run.ctx.evidence
      .list()
      .some((e) => e.kind === 'note' && /^silent fallback: asked reasoning_search/.test(e.text)),
    'the fallback is noted in the evidence',
  );
  await run.context.close();
});

const VARIANT_ERRORS: [string, Mode, string, string, boolean, string | undefined][] = [
  [
    'login_wall',
    'standard',
    // A 401 after the page showed the logged-in chat: the session died, not a login wall.
    'session_expired: HTTP 401 on the chat call (40002 Missing Token) (deepseek)',
    'failed',
    true,
    'needs_human',
  ],
  [
    'captcha',
    'standard',
    'captcha: 40301 HCAPTCHA_REQUIRED (deepseek)',
    'failed',
    true,
    'needs_human',
  ],
  [
    'expired',
    'reasoning',
    'session expired: 40003 Authorization Failed (invalid token) (deepseek)',
    'failed',
    true,
    'needs_human',
  ],
  [
    'rate_limit',
    'search',
    'rate or quota limit on deepseek: 消息发送过于频繁，请稍后再试。',
    'error',
    true,
    'cooling',
  ],
  [
    'refusal',
    'standard',
    'deepseek refused to answer: 你好，这个问题我暂时无法回答，让我们换个话题再聊聊吧。',
    'failed',
    false,
    undefined,
  ],
  [
    'unknown_frame',
    'search',
    'unrecognised deepseek stream format: fragment type "TOOL_PYTHON"',
    'failed',
    false,
    undefined,
  ],
];

/** What a person must do for each needs_human variant: the dead sessions are not login walls. */
const HUMAN_KINDS: Record<string, string> = {
  login_wall: 'session_expired',
  expired: 'session_expired',
  captcha: 'verification',
};

for (const [variant, mode, message, status, retryable, account] of VARIANT_ERRORS) {
  t.test(`variant ${variant}: ${message}`, async (t) => {
    const run = await ask(job(`测试 #replica:${variant}`, mode));
    const err = await failure(run.result);
    t.same(
      [err.message, err.status, err.retryable, err.account?.state],
      [message, status, retryable, account],
    );
    t.equal(
      err.account?.state === 'needs_human' ? err.account.kind : undefined,
      HUMAN_KINDS[variant],
      'the help a person must give',
    );
    if (account === 'cooling' && err.account?.state === 'cooling') {
      t.ok(err.account.untilMs > Date.now(), 'cools until a later time');
    }
    t.ok(
      run.ctx.evidence.list().some((e) => e.kind === 'frame'),
      'what the site said is kept',
    );
    await run.context.close();
  });
}

t.test(
  'an expired storage state and no storage state: the sign-in page is a login wall',
  async (t) => {
    for (const [what, state] of [
      ['expired', replica.expiredStorageState()],
      ['none', null],
    ] as const) {
      const run = await ask(job('你好', 'standard'), state);
      const err = await failure(run.result);
      t.same(
        [err.message, err.status, err.retryable, err.account?.state],
        [
          'login wall: the site shows its sign-in page (/sign_in) (deepseek)',
          'failed',
          true,
          'needs_human',
        ],
        what,
      );
      t.same(await deepseekWeb.loginState(run.page, { settings }), {
        loggedIn: false,
        reason: 'login wall: the site shows its sign-in page (/sign_in) (deepseek)',
      });
      await run.context.close();
    }
  },
);

t.test(
  'a challenge shown on the opened page: captcha or Cloudflare, before anything is typed',
  async (t) => {
    const cases: [string, string, string][] = [
      [
        'captcha',
        `document.querySelector('.ds-hcaptcha').hidden = false`,
        'captcha: hCaptcha 人机验证 (deepseek)',
      ],
      ['cloudflare', `document.title = 'Just a moment...'`, 'Cloudflare interstitial (deepseek)'],
    ];
    for (const [what, script, message] of cases) {
      const context = await browser.newContext({ storageState: replica.storageState() as never });
      const page = await context.newPage();
      const ctx = await webContext(page, settings);
      await page.goto(deepseekWeb.startUrl(job('x', 'standard'), { settings }));
      await page.locator('textarea#chat-input').waitFor();
      await page.evaluate(script);
      const err = await failure(deepseekWeb.ask(page, job('你好', 'standard'), ctx));
      t.same([err.message, err.account?.state], [message, 'needs_human'], what);
      t.equal(await page.inputValue('textarea#chat-input'), '', `${what}: nothing typed`);
      await context.close();
    }
  },
);

t.test('a stream that ends without its end marker: the answer is read from the page', async (t) => {
  // The captured stream ends with no bytes at all: only the page shows the answer.
  const dropBytes = (ctx: WebContext): WebContext => ({
    ...ctx,
    capture: {
      next: async (match, signal) => {
        const stream = await ctx.capture.next(match, signal);
        return { ...stream, chunks: (async function* () {})() };
      },
      close: () => ctx.capture.close(),
    },
  });
  const context = await browser.newContext({ storageState: replica.storageState() as never });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const ctx = await webContext(page, settings);
  const prompt = '丢字节测试';
  await page.goto(deepseekWeb.startUrl(job(prompt, 'standard'), { settings }));
  const answer = await deepseekWeb.ask(page, job(prompt, 'standard'), dropBytes(ctx));
  const shown = (await page.locator('div.ds-markdown').last().innerText()).trim();
  t.equal(answer.formatVersion, 'deepseek-dom');
  t.equal(answer.answerContent, shown, 'the text the page shows');
  t.ok(shown.length > 0);
  t.equal(answer.effectiveMode, 'standard', 'the mode from the captured request');
  t.ok(
    ctx.evidence.list().some((e) => e.kind === 'note' && /no end marker/.test(e.text)),
    'the evidence says so',
  );
});

t.test('login: the QR sign-in page, then the session the site sets', async (t) => {
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(deepseekWeb.loginUrl({ settings }));
  const qr = await page.getAttribute('img.ds-qr', 'src');
  t.match(qr, /^data:image\/png;base64,/);
  t.equal((await deepseekWeb.loginState(page, { settings })).loggedIn, false);
  const confirmed = await fetch(`${replica.url}/__replica/login`, { method: 'POST', body: '{}' });
  t.equal(confirmed.status, 200);
  await page.waitForURL(`${replica.url}/`);
  t.same(await deepseekWeb.loginState(page, { settings }), { loggedIn: true });
  const stored = await context.storageState();
  const token = stored.origins[0]?.localStorage.find((e) => e.name === 'userToken')?.value;
  t.same(
    JSON.parse(token ?? '{}'),
    JSON.parse(replica.storageState().origins[0]!.localStorage[0]!.value),
  );
});

t.test(
  'the replica refuses a chat call the page did not sign with its proof-of-work',
  async (t) => {
    const token = (
      JSON.parse(replica.storageState().origins[0]!.localStorage[0]!.value) as { value: string }
    ).value;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({
      chat_session_id: 'x',
      prompt: 'hi',
      thinking_enabled: false,
      search_enabled: false,
    });
    const post = (extra: Record<string, string> = {}) =>
      fetch(`${replica.url}/api/v0/chat/completion`, {
        method: 'POST',
        headers: { ...headers, ...extra },
        body,
      });

    const bare = await post();
    t.match(bare.headers.get('content-type'), /application\/json/);
    t.same(await bare.json(), {
      code: 40301,
      msg: 'INVALID_POW_RESPONSE: missing X-Ds-Pow-Response',
      data: null,
    });

    // The header the page computed for its own call works once, never again.
    const run = await ask(job('重放测试', 'standard'));
    await run.result;
    const sentPow = replica.site.seen
      .filter((s) => s.path === '/api/v0/chat/completion' && s.headers['x-ds-pow-response'])
      .pop()?.headers['x-ds-pow-response'] as string;
    t.ok(sentPow, 'the page sent X-Ds-Pow-Response');
    const replayed = await post({ 'x-ds-pow-response': sentPow });
    t.same(await replayed.json(), {
      code: 40301,
      msg: 'INVALID_POW_RESPONSE: not a live challenge',
      data: null,
    });

    // A live challenge with an answer nobody computed.
    const issued = (await (
      await fetch(`${replica.url}/api/v0/chat/create_pow_challenge`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ target_path: '/api/v0/chat/completion' }),
      })
    ).json()) as { data: { biz_data: { challenge: Record<string, unknown> } } };
    const c = issued.data.biz_data.challenge;
    let guess = 0;
    const { createHash } = await import('node:crypto');
    // An answer that is certainly wrong: one whose hash does not start with a zero byte.
    while (
      createHash('sha256')
        .update(`${String(c.salt)}_${String(c.expire_at)}_${guess}${String(c.challenge)}`)
        .digest()[0] === 0
    )
      guess++;
    const forged = Buffer.from(JSON.stringify({ ...c, answer: guess })).toString('base64');
    t.same(await (await post({ 'x-ds-pow-response': forged })).json(), {
      code: 40301,
      msg: 'INVALID_POW_RESPONSE: wrong answer',
      data: null,
    });
    await run.context.close();
  },
);

t.test('the job signal ends the wait: a timeout, not an answer', async (t) => {
  const slow = await startDeepseekReplica({ latencyMs: 400 });
  t.teardown(() => slow.close());
  const s = { ...settings, webUrl: slow.url, apiBaseUrl: slow.url };
  const controller = new AbortController();
  const run = await ask(job('慢一点', 'search', controller.signal), slow.storageState(), s);
  setTimeout(() => controller.abort(), 2_500);
  const err = await failure(run.result);
  t.same([err.status, err.retryable], ['timeout', true]);
  await run.context.close();
});

t.test('origins: the replica alone; the real site with its hosts', async (t) => {
  t.same(deepseekWeb.origins({ settings }), [replica.url]);
  const real = deepseekWeb.origins({
    settings: { ...settings, webUrl: 'https://chat.deepseek.com' },
  });
  t.same(real.slice(0, 2), ['https://chat.deepseek.com', 'https://*.deepseek.com']);
  t.equal(
    deepseekWeb.startUrl(job('x', 'standard'), {
      settings: { ...settings, webUrl: 'https://chat.deepseek.com' },
    }),
    'https://chat.deepseek.com/',
  );
  t.equal(
    deepseekWeb.loginUrl({ settings: { ...settings, webUrl: 'https://chat.deepseek.com' } }),
    'https://chat.deepseek.com/sign_in',
  );
});
