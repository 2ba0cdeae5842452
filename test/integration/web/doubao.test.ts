/**
 * The Doubao web driver in real headless Chromium against the Doubao replica
 * (replicas/doubao), whose page sends its chat call from a SharedWorker:
 * every mode gives the exact fields, every variant the right site signal and
 * no answer, the evidence holds the request and every frame, and the replica
 * refuses a chat call the page did not sign.
 */
import t from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import { MODES } from '../../../services/shared/platforms.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { doubaoWeb } from '../../../crawler/platforms/doubao/web/index.js';
import { hasReasoning, hasSearch } from '../../../crawler/platforms/common/answer.js';
import type { Job, PlatformSettings, WebAnswer } from '../../../crawler/platforms/types.js';
import { startDoubaoReplica } from '../../../replicas/doubao/server.js';
import { replicaAnswer } from '../../../replicas/doubao/answers.js';
import { expectedAnswer as expected } from '../../../replicas/doubao/expected.js';
import { frames2026 } from '../../../replicas/doubao/frames.js';
import { webContext } from '../../helpers/web-context.js';
import { doubaoAsker } from '../../helpers/doubao-ask.js';

// A dozen and more Chromium runs: room for a busy 2-core machine.
t.setTimeout(300_000);

const replica = await startDoubaoReplica({ latencyMs: 2 });
const browser = await testBrowser(t, replica);

const { settings, open, ask } = doubaoAsker(t, browser, replica);

const fieldsOf = ({
  effectiveMode: _m,
  formatVersion: _f,
  answerSource: _s,
  ...answer
}: WebAnswer): Answer => answer;

t.test('every mode: exact fields, read from the SharedWorker stream', async (t) => {
  const prompt = '上海适合带孩子去哪里玩';
  for (const mode of MODES) {
    const r = await ask(prompt, mode);
    t.equal(r.error, undefined, `${mode}: no error`);
    t.same(fieldsOf(r.answer!), expected(prompt, mode), `${mode}: fields`);
    t.equal(r.answer!.effectiveMode, mode, `${mode}: effective mode from the request body`);
    t.equal(r.answer!.formatVersion, 'doubao-2026');
    t.equal(r.answer!.answerSource, 'stream', `${mode}: the stream and the page agree`);
    t.equal(
      await r.page.locator('[data-testid="deep_think_button"]').getAttribute('aria-checked'),
      String(hasReasoning(mode)),
    );
    t.equal(
      await r.page.locator('[data-testid="web_search_button"]').getAttribute('aria-checked'),
      String(hasSearch(mode)),
    );
    t.equal(
      await r.page.locator('[data-testid="search-reference-ui-v3"]').isVisible(),
      hasSearch(mode),
      `${mode}: the sources panel is left open when there are sources`,
    );
    t.notOk(await r.page.locator('[data-testid="chat_input_stop_button"]').isVisible());

    const entries = r.ctx.evidence.list();
    const request = entries.find((e) => e.kind === 'request');
    t.match(request, {
      method: 'POST',
      url: /\/chat\/completion\?aid=497858&device_id=\d+&.*msToken=\w+&a_bogus=[\w-]+$/,
    });
    const body = JSON.parse((request as { body: string }).body) as { option: object };
    t.match(body.option, {
      need_deep_think: hasReasoning(mode) ? 1 : 0,
      need_web_search: hasSearch(mode) ? 1 : 0,
    });
    t.match(
      entries.find((e) => e.kind === 'response'),
      { status: 200, mimeType: 'text/event-stream' },
    );
    const a = replicaAnswer(prompt, { deepThink: hasReasoning(mode), webSearch: hasSearch(mode) });
    const sent = frames2026(prompt, a, {
      conversationId: '',
      sectionId: '',
      localConversationId: '',
    });
    const frames = entries.filter((e) => e.kind === 'frame');
    t.equal(frames.length, sent.length, `${mode}: every frame is in the evidence`);
    t.match(frames.at(-1), { data: /^id: \d+\nevent: SSE_REPLY_END\ndata: \{"end_type":3\}$/ });
    await r.context.close();
  }
});

t.test('a switch already on is turned off through the page for a standard job', async (t) => {
  const r = await ask('番茄炒蛋怎么做', 'standard', replica.storageState(), async (page) => {
    await page.click('[data-testid="deep_think_button"]');
    await page.click('[data-testid="web_search_button"]');
  });
  t.same(fieldsOf(r.answer!), expected('番茄炒蛋怎么做', 'standard'));
  t.equal(r.answer!.effectiveMode, 'standard');
  await r.context.close();
});

t.test('old format: the 307 to /samantha/chat/completion is followed and parsed', async (t) => {
  const prompt = '番茄炒蛋怎么做 #replica:old_format';
  const r = await ask(prompt, 'reasoning');
  const a = replicaAnswer(prompt, { deepThink: true, webSearch: false });
  t.equal(r.answer!.formatVersion, 'doubao-samantha');
  t.equal(r.answer!.answerContent, a.text.join('').trim());
  t.same(r.answer!.recommendedQuestions, a.followUps);
  t.equal(r.answer!.reasoningProcess, null, 'the older format carries no reasoning');
  t.equal(r.answer!.effectiveMode, 'reasoning', 'what the page asked for, from the body');
  t.match(
    r.ctx.evidence.list().find((e) => e.kind === 'request'),
    {
      url: /\/samantha\/chat\/completion\?aid=497858&/,
    },
  );
  await r.context.close();
});

t.test('a stream without its end marker: the answer is read from the page', async (t) => {
  const prompt = '杭州三日游攻略 #doubao:no_end';
  const r = await ask(prompt, 'search');
  t.equal(r.error, undefined);
  t.equal(r.answer!.formatVersion, 'doubao-dom');
  t.equal(r.answer!.answerSource, 'dom');
  t.same(fieldsOf(r.answer!), expected(prompt, 'search'));
  t.equal(r.answer!.effectiveMode, 'search');
  t.match(r.ctx.evidence.list().at(-1), { kind: 'note', text: /no end marker/ });
  await r.context.close();
});

t.test('a stream that stalls after the message ends: the page is read', async (t) => {
  const prompt = '成都周末去哪 #doubao:stall';
  const fast: PlatformSettings = { ...settings, timeoutMs: 6_000 };
  const context = await open(replica.storageState());
  const page = await context.newPage();
  const ctx = await webContext(page, fast);
  const job: Job = { prompt, mode: 'reasoning', signal: AbortSignal.timeout(30_000) };
  await page.goto(doubaoWeb.startUrl(job, ctx));
  const started = Date.now();
  const answer = await doubaoWeb.ask(page, job, ctx);
  t.ok(Date.now() - started >= 1_500, 'waited out the stall (a quarter of the platform time)');
  t.equal(answer.formatVersion, 'doubao-dom');
  t.same(fieldsOf(answer), expected(prompt, 'reasoning'));
  t.equal(answer.effectiveMode, 'reasoning');
  await context.close();
});

t.test(
  'an unknown event without text (#replica:unknown_frame): kept, skipped, the exact answer',
  async (t) => {
    const prompt = '北京今天天气 #replica:unknown_frame';
    const r = await ask(prompt, 'search');
    t.equal(r.error, undefined);
    t.same(fieldsOf(r.answer!), expected(prompt, 'search'));
    t.equal(r.answer!.answerSource, 'stream');
    t.ok(
      r.ctx.evidence
        .list()
        .some((e) => e.kind === 'note' && e.text.includes('event "STREAM_PLAN_NOTIFY"')),
      'noted as kept but not applied',
    );
    await r.context.close();
  },
);

t.test('a refused chat call leaves its body in the evidence', async (t) => {
  const r = await ask('北京今天天气 #replica:login_wall', 'standard');
  t.match(r.error?.message, /^session_expired: HTTP 401/);
  t.match(
    r.ctx.evidence.list().find((e) => e.kind === 'frame'),
    {
      data: '{"code":710012001,"msg":"not login"}',
    },
  );
  await r.context.close();
});

const variants: [string, StorageState | undefined, RegExp, string, boolean, string | undefined][] =
  [
    [
      '#replica:login_wall',
      undefined,
      /^session_expired: HTTP 401 on the chat call .*\(doubao\)$/,
      'failed',
      true,
      'needs_human',
    ],
    [
      '#replica:captcha',
      undefined,
      /^captcha: 710022004 rate limited \(verify\) \(doubao\)$/,
      'failed',
      true,
      'needs_human',
    ],
    [
      '#replica:expired',
      undefined,
      /^expired session: 710012000 user invalid \(doubao\)$/,
      'failed',
      true,
      'needs_human',
    ],
    [
      '(expired storage state)',
      replica.expiredStorageState(),
      /^expired session: 710012000 user invalid/,
      'failed',
      true,
      'needs_human',
    ],
    [
      '#replica:rate_limit',
      undefined,
      /^rate or quota limit on doubao: 710022002 当前服务访问频繁/,
      'error',
      true,
      'cooling',
    ],
    [
      '#replica:refusal',
      undefined,
      /^doubao refused to answer: .*换个话题/,
      'failed',
      false,
      undefined,
    ],
  ];

for (const [directive, state, message, status, retryable, account] of variants) {
  t.test(`${directive} → ${message.source}`, async (t) => {
    const r = await ask(`北京今天天气 ${directive}`, 'search', state ?? replica.storageState());
    t.equal(r.answer, undefined, 'no answer');
    t.match(r.error?.message, message);
    t.equal(r.error?.status, status);
    t.equal(r.error?.retryable, retryable);
    t.equal(r.error?.account?.state, account);
    t.ok(
      r.ctx.evidence.list().some((e) => e.kind === 'request'),
      'the request is in the evidence',
    );
    if (directive === '#replica:captcha')
      t.ok(
        await r.page.locator('[data-testid="captcha-modal"]').isVisible(),
        'slide captcha shown',
      );
    await r.context.close();
  });
}

t.test('no session: the login dialog on the opened page, before any chat call', async (t) => {
  const calls = replica.calls.length;
  const r = await ask('北京今天天气', 'standard', null);
  t.match(r.error, {
    message: 'login wall: the page shows a login dialog (doubao)',
    status: 'failed',
    retryable: true,
    account: { state: 'needs_human' },
  });
  t.equal(replica.calls.length, calls, 'nothing was sent');
  t.same(await doubaoWeb.loginState(r.page, { settings }), {
    loggedIn: false,
    reason: 'login wall: the page shows a login dialog (doubao)',
  });
  await r.context.close();
});

t.test('QR login: the page polls, the confirmation sets the session cookies', async (t) => {
  const context = await open(null);
  const page = await context.newPage();
  await page.goto(doubaoWeb.loginUrl({ settings }));
  t.match(
    await page.locator('[data-testid="login_qrcode"]').getAttribute('src'),
    /^data:image\/png;base64,/,
  );
  await fetch(`${replica.url}/__replica/login`, { method: 'POST' });
  await page.locator('[data-testid="chat_header_avatar_button"]').waitFor({ timeout: 10_000 });
  t.same(await doubaoWeb.loginState(page, { settings }), { loggedIn: true });
  const names = (await context.cookies()).map((c) => c.name).sort();
  t.same(names, ['sessionid', 'sid_tt']);
  await context.close();
});

t.test('the replica refuses a chat call the page did not sign', async (t) => {
  const r = await ask('深圳有什么好吃的', 'standard');
  const request = r.ctx.evidence.list().find((e) => e.kind === 'request') as {
    url: string;
    body: string;
  };
  const cookie = (await r.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const post = (url: string, body: string) =>
    fetch(url, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body });
  const unsigned = request.url.replace(/&a_bogus=[^&]*/, '');
  t.equal((await post(unsigned, request.body)).status, 403, 'without a_bogus');
  const changed = request.body.replace('"need_web_search":0', '"need_web_search":1');
  t.equal((await post(request.url, changed)).status, 403, 'a_bogus of another body');
  const replay = await post(request.url, request.body);
  t.equal(replay.status, 200, 'the page-signed call itself is accepted');
  await replay.body?.cancel();
  await r.context.close();
});

t.test('origins: the replica alone; the real site adds its API and CDN hosts', async (t) => {
  t.same(doubaoWeb.origins({ settings }), [replica.url]);
  const real = doubaoWeb.origins({ settings: { ...settings, webUrl: 'https://www.doubao.com' } });
  t.equal(real[0], 'https://www.doubao.com');
  t.ok(real.includes('https://*.byteimg.com'));
  t.equal(
    doubaoWeb.startUrl(
      { prompt: '', mode: 'standard', signal: AbortSignal.timeout(1) },
      { settings },
    ),
    `${replica.url}/chat/`,
  );
});
