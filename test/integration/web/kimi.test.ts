/**
 * The Kimi web driver in real headless Chromium against the Kimi replica on
 * 127.0.0.1: every mode gives the exact fields the replica streamed, the
 * older build's SSE format is read too, every misbehaviour ends in the right
 * PlatformError and account verdict with no answer, the evidence holds the
 * request and every frame, and the chat call refuses a request the page's
 * script did not sign.
 */
import t from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import type { BrowserContext, Page } from 'playwright';
import { MODES, type Mode } from '../../../services/shared/platforms.js';
import { kimiWeb } from '../../../crawler/platforms/kimi/web/index.js';
import {
  PlatformError,
  type Job,
  type PlatformSettings,
  type WebAnswer,
  type WebContext,
} from '../../../crawler/platforms/types.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { hasReasoning, hasSearch } from '../../../crawler/platforms/common/answer.js';
import { requestJson } from '../../../crawler/platforms/kimi/web/request-mode.js';
import { webContext } from '../../helpers/web-context.js';
import { CHAT_PATH, startKimiReplica } from '../../../replicas/kimi/server.js';
import { expectedFields } from '../../../replicas/kimi/expected.js';
import {
  connectMessages,
  NO_END_MARKER,
  QUOTA_MESSAGE,
  REFUSAL_NOTICE,
} from '../../../replicas/kimi/frames.js';

// Seventeen Chromium runs: room for a busy 2-core machine.
t.setTimeout(300_000);

const replica = await startKimiReplica({ latencyMs: 5 });
const browser = await testBrowser(t, replica);

const settings: PlatformSettings = { apiBaseUrl: '', webUrl: replica.url, timeoutMs: 30_000 };
const job = (prompt: string, mode: Mode = 'standard'): Job => ({
  prompt,
  mode,
  signal: AbortSignal.timeout(30_000),
});

interface Run {
  page: Page;
  ctx: WebContext;
  context: BrowserContext;
}

async function open(state: StorageState | null): Promise<Run> {
  const context = await browser.newContext({
    ...(state ? { storageState: state } : {}),
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  const page = await context.newPage();
  const ctx = await webContext(page, settings);
  await page.goto(kimiWeb.startUrl(job('x'), ctx));
  return { page, ctx, context };
}

async function ask(
  prompt: string,
  mode: Mode,
  state: StorageState | null = replica.storageState(),
) {
  const run = await open(state);
  try {
    const answer = await kimiWeb.ask(run.page, job(prompt, mode), run.ctx);
    return { run, answer, error: undefined };
  } catch (error) {
    return { run, answer: undefined, error: error as PlatformError };
  }
}

const expected = (prompt: string, mode: Mode, withThink = true, withSuggestions = true) =>
  expectedFields(prompt, mode, replica.url, withThink, withSuggestions);

for (const mode of MODES) {
  t.test(
    `mode ${mode}: the exact fields the site streamed, read from the Connect stream`,
    async (t) => {
      const prompt = `新能源汽车市场 ${mode}`;
      const { run, answer, error } = await ask(prompt, mode);
      t.teardown(() => run.context.close());
      t.equal(error, undefined, 'no failure');
      const a = answer as WebAnswer;
      const want = expected(prompt, mode);
      t.equal(a.answerContent, want.answerContent);
      t.same(a.referenceList, want.referenceList);
      t.same(a.citationList, want.citationList);
      t.equal(a.reasoningProcess?.content ?? null, want.reasoning);
      t.same(a.recommendedQuestions, want.recommendedQuestions);
      t.same(a.mediaContent, []);
      t.equal(a.effectiveMode, mode);
      t.equal(a.formatVersion, 'kimi-connect-1');
      if (hasSearch(mode)) {
        t.ok(await run.page.locator('.sources-panel').isVisible(), 'the sources panel is open');
        t.ok(a.referenceList.every((r) => r.site !== '' && r.icon.startsWith(replica.url)));
      }
    },
  );
}

t.test('the evidence holds the signed request and every frame as bytes', async (t) => {
  const prompt = '证据检查';
  const { run, error } = await ask(prompt, 'reasoning_search');
  t.teardown(() => run.context.close());
  t.equal(error, undefined);
  const entries = run.ctx.evidence.list();
  const request = entries.find((e) => e.kind === 'request');
  t.match(request, { kind: 'request', method: 'POST' });
  t.ok(request?.kind === 'request' && request.url.endsWith(CHAT_PATH));
  const body = request?.kind === 'request' ? requestJson(request.body ?? '') : undefined;
  t.match(
    body,
    { message: { blocks: [{ text: { content: prompt } }] } },
    'the body holds the prompt',
  );
  const frames = entries.filter((e) => e.kind === 'frame');
  const sent = connectMessages(
    prompt,
    { thinking: true, search: true },
    replica.url,
    undefined,
    false,
  );
  t.equal(frames.length, sent.length, 'one evidence frame per Connect message');
  t.ok(frames.every((f) => f.kind === 'frame' && f.encoding === 'base64'));
  const last = frames.at(-1);
  const bytes = Buffer.from(last?.kind === 'frame' ? last.data : '', 'base64');
  t.equal(bytes[0], 0x02, 'the last frame is the end-of-stream envelope');
  const seen = replica.site.seen.filter((s) => s.path === CHAT_PATH).at(-1);
  t.match(seen?.headers, { 'x-msh-signature': /^[0-9a-f]{64}$/, 'x-msh-device-id': /^\d+$/ });
});

t.test(
  'an unknown frame without text (#replica:unknown_frame): kept, skipped, the answer',
  async (t) => {
    const prompt = '储能电池 #replica:unknown_frame';
    const { run, answer, error } = await ask(prompt, 'search');
    t.teardown(() => run.context.close());
    t.equal(error, undefined);
    const a = answer as WebAnswer;
    t.equal(a.answerContent, expected('储能电池', 'search').answerContent);
    t.equal(a.answerSource, 'stream', 'the page agrees');
    t.ok(
      run.ctx.evidence
        .list()
        .some((e) => e.kind === 'note' && e.text.includes('frame mask "block.widget"')),
      'kept but not applied, and noted',
    );
  },
);

t.test('no end marker: the page judges completion (stable text, no stop button)', async (t) => {
  const prompt = `储能电池 ${NO_END_MARKER}`;
  const { run, answer, error } = await ask(prompt, 'search');
  t.teardown(() => run.context.close());
  t.equal(error, undefined);
  const a = answer as WebAnswer;
  const want = expected(prompt, 'search');
  t.equal(a.answerContent, want.answerContent);
  t.same(a.referenceList, want.referenceList);
  t.same(a.recommendedQuestions, want.recommendedQuestions);
  t.equal(a.formatVersion, 'kimi-connect-1');
  t.ok(
    run.ctx.evidence.list().some((e) => e.kind === 'note' && /no end marker/.test(e.text)),
    'the evidence says how completion was judged',
  );
});

t.test('the older build: legacy SSE, its effective mode and fields', async (t) => {
  for (const mode of ['search', 'reasoning_search'] as const) {
    const prompt = `光伏产业 #replica:old_format`;
    const { run, answer, error } = await ask(prompt, mode);
    t.teardown(() => run.context.close());
    t.equal(error, undefined);
    const a = answer as WebAnswer;
    const want = expected(prompt, mode, true, false);
    t.equal(a.formatVersion, 'kimi-sse-legacy');
    t.equal(a.effectiveMode, mode);
    t.equal(a.answerContent, want.answerContent);
    t.same(a.referenceList, want.referenceList);
    t.same(a.citationList, want.citationList);
    t.equal(a.reasoningProcess?.content ?? null, want.reasoning, 'the k1 events: the reasoning');
    t.ok(run.ctx.evidence.list().some((e) => e.kind === 'frame' && e.data.includes('all_done')));
  }
});

t.test(
  'the older build’s picker shows a model name: Kimi, or 长思考 (k1.5) from its menu',
  async (t) => {
    const older = await startKimiReplica({ latencyMs: 5, drift: 'model_name_picker' });
    const context = await browser.newContext({
      storageState: older.storageState() as never,
      locale: 'zh-CN',
    });
    t.teardown(async () => {
      await context.close();
      await older.close();
    });
    const page = await context.newPage();
    const onOlder = { ...settings, webUrl: older.url };
    // Both ways on one page: on from the model name, then off again.
    for (const mode of ['reasoning_search', 'search'] as const) {
      const ctx = await webContext(page, onOlder);
      await page.goto(kimiWeb.startUrl(job('x'), ctx));
      const prompt = `光伏产业 #replica:old_format`;
      const a = await kimiWeb.ask(page, job(prompt, mode), ctx);
      await ctx.capture.close();
      const want = expectedFields(prompt, mode, older.url, true, false);
      t.equal(a.formatVersion, 'kimi-sse-legacy', mode);
      t.equal(a.effectiveMode, mode, `${mode}: the mode that ran`);
      t.equal(a.answerContent, want.answerContent, `${mode}: the answer`);
      t.equal(a.reasoningProcess?.content ?? null, want.reasoning, `${mode}: the reasoning`);
      t.equal(a.modelReported, hasReasoning(mode) ? '长思考 (k1.5)' : 'Kimi', `${mode}: the label`);
      t.equal(older.asked.at(-1)?.mode, mode, `${mode}: the replica was asked it`);
    }
  },
);

interface Case {
  name: string;
  prompt: string;
  state?: () => StorageState | null;
  status: string;
  retryable: boolean;
  account: string | undefined;
  message: RegExp;
}

const cases: Case[] = [
  {
    name: 'login_wall',
    prompt: '问题 #replica:login_wall',
    status: 'failed',
    retryable: true,
    account: 'needs_human',
    // A 401 after the page showed the logged-in chat: the session died, not a login wall.
    message: /^session_expired: HTTP 401 on the chat call/,
  },
  {
    name: 'captcha',
    prompt: '问题 #replica:captcha',
    status: 'failed',
    retryable: true,
    account: 'needs_human',
    message: /verification|captcha/,
  },
  {
    name: 'expired',
    prompt: '问题 #replica:expired',
    status: 'failed',
    retryable: true,
    account: 'needs_human',
    // The stream's own error, or (when CDP loses a one-frame body) the login modal the page opens.
    message: /session expired|login wall: the page shows its login modal/,
  },
  {
    name: 'expired storage state',
    prompt: '普通问题',
    state: () => replica.expiredStorageState(),
    status: 'failed',
    retryable: true,
    account: 'needs_human',
    message: /session expired|login wall: the page shows its login modal/,
  },
  {
    name: 'logged out (no storage state)',
    prompt: '普通问题',
    state: () => null,
    status: 'failed',
    retryable: true,
    account: 'needs_human',
    message: /login wall/,
  },
  {
    name: 'rate_limit',
    prompt: '问题 #replica:rate_limit',
    status: 'error',
    retryable: true,
    account: 'cooling',
    message: new RegExp(QUOTA_MESSAGE.slice(0, 8)),
  },
  {
    name: 'refusal',
    prompt: '问题 #replica:refusal',
    status: 'failed',
    retryable: false,
    account: undefined,
    message: new RegExp(REFUSAL_NOTICE),
  },
];

for (const c of cases) {
  t.test(`variant ${c.name}: the right failure, no answer`, async (t) => {
    const { run, answer, error } = await ask(
      c.prompt,
      'search',
      c.state ? c.state() : replica.storageState(),
    );
    t.teardown(() => run.context.close());
    t.equal(answer, undefined, 'no answer');
    t.type(error, PlatformError);
    t.equal(error?.status, c.status);
    t.equal(error?.retryable, c.retryable);
    t.equal(error?.account?.state, c.account);
    t.match(error?.message, c.message);
  });
}

t.test('login: the QR page, then the session the site sets', async (t) => {
  const run = await open(null);
  t.teardown(() => run.context.close());
  t.match(await kimiWeb.loginState(run.page, run.ctx), { loggedIn: false });
  t.match(await run.page.locator('img.qrcode').getAttribute('src'), /^data:image\/png;base64,/);
  const res = await fetch(`${replica.url}/__replica/login`, { method: 'POST' });
  t.equal(res.status, 200);
  await run.page.waitForSelector('.user-info', { timeout: 10_000 });
  t.same(await kimiWeb.loginState(run.page, run.ctx), { loggedIn: true });
  const state = await run.context.storageState();
  t.ok(state.cookies.some((c) => c.name === 'kimi-auth'));
  t.ok(state.origins[0]?.localStorage.some((e) => e.name === 'access_token'));
  const answer = await kimiWeb.ask(run.page, job('登录后提问', 'standard'), run.ctx);
  t.equal(answer.answerContent, expected('登录后提问', 'standard').answerContent);
});

t.test('the job signal ends the ask mid-stream as a timeout', async (t) => {
  const slow = await startKimiReplica({ latencyMs: 400 });
  t.teardown(() => slow.close());
  const context = await browser.newContext({ storageState: slow.storageState() });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const ctx = await webContext(page, { ...settings, webUrl: slow.url });
  await page.goto(`${slow.url}/`);
  const started = Date.now();
  const error = await kimiWeb
    .ask(page, { prompt: '慢回答', mode: 'standard', signal: AbortSignal.timeout(3_000) }, ctx)
    .then(
      () => undefined,
      (e: unknown) => e as PlatformError,
    );
  t.equal(error?.status, 'timeout');
  t.equal(error?.retryable, true);
  t.ok(Date.now() - started < 8_000, 'ended soon after the signal');
});

t.test('the chat call refuses a request the page did not sign', async (t) => {
  const state = replica.storageState();
  const token = state.cookies.find((c) => c.name === 'kimi-auth')!.value;
  const json = Buffer.from(
    JSON.stringify({ message: { role: 'user', blocks: [{ text: { content: 'replay' } }] } }),
  );
  const head = Buffer.alloc(5);
  head.writeUInt32BE(json.length, 1);
  const post = (headers: Record<string, string>) =>
    fetch(`${replica.url}${CHAT_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/connect+json',
        authorization: `Bearer ${token}`,
        cookie: `kimi-auth=${token}`,
        ...headers,
      },
      body: Buffer.concat([head, json]),
    });
  const unsigned = await post({});
  t.equal(unsigned.status, 400);
  t.match(await unsigned.json(), { code: 'invalid_argument', message: /x-msh-device-id/ });
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    device_id: string;
    ssid: string;
  };
  const forged = await post({
    'x-msh-device-id': claims.device_id,
    'x-msh-session-id': claims.ssid,
    'x-msh-timestamp': String(Date.now()),
    'x-msh-signature': '0'.repeat(64),
  });
  t.equal(forged.status, 400);
  t.match(await forged.json(), { message: /x-msh-signature/ });
});
