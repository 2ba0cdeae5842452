/**
 * The ChatGPT web driver in real Chromium against the replica of
 * chatgpt.com, for the site's own quirks (the site contract runs the common
 * drifts and the stream variants): every mode through the page's own pills
 * gives the exact fields, the request's `system_hints` asking it, the
 * page's own proof of work on the call and the encoding that answered; a
 * stream that never completes is judged by the page; every wall is its
 * named outcome within seconds (Cloudflare's challenge a `captcha`); the
 * replica refuses a chat call without the page's sentinel token or with a
 * wrong proof, so the driver never makes the call itself.
 */
import t, { type Test } from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import { webContext } from '../../helpers/web-context.js';
import {
  jobOf,
  settingsOf,
  type SitePages,
  askOn,
  everyMode,
  checkWalls,
  sessionWalls,
  checkRefusal,
  checkLoginStates,
  type Wall,
  type DriverRun,
} from '../../helpers/driver-runs.js';
import { chatgptWeb } from '../../../crawler/platforms/chatgpt/web/index.js';
import type { Job } from '../../../crawler/platforms/types.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { expectedWebAnswer } from '../../../replicas/chatgpt/expected.js';
import {
  proofHolds,
  SESSION_COOKIE,
  startChatgptReplica,
} from '../../../replicas/chatgpt/server.js';

t.setTimeout(240_000);

const replica = await startChatgptReplica({ latencyMs: 3 });
t.teardown(() => replica.close());
const browser = await testBrowser(t, replica);
const settings = settingsOf(replica.url);

const site: SitePages = { browser, driver: chatgptWeb, locale: 'en-US' };
const ask = (t: Test, j: Job, state: StorageState | null = replica.storageState()) =>
  askOn(t, site, settings, j, state);

const request = (run: DriverRun) =>
  run.ctx.evidence.list().find((e) => e.kind === 'request') as {
    body: string;
    headers?: Record<string, string>;
  };

t.test('every mode through the page pills: the exact answer, as asked', async (t) => {
  await everyMode(t, ask, 'smart home brands', expectedWebAnswer, async (run, mode) => {
    const body = JSON.parse(request(run).body) as {
      system_hints: string[];
      supported_encodings: string[];
    };
    const think = mode === 'reasoning' || mode === 'reasoning_search';
    const search = mode === 'search' || mode === 'reasoning_search';
    t.equal(body.system_hints.includes('reason'), think, `${mode}: reason asked`);
    t.equal(body.system_hints.includes('search'), search, `${mode}: search asked`);
    t.same(body.supported_encodings, ['v1'], `${mode}: the page asked the v1 encoding`);
    t.equal(
      await run.page.getByRole('complementary', { name: 'Sources' }).isVisible(),
      search,
      `${mode}: the sources panel open for the screenshot`,
    );
  });
});

t.test('both encodings: v1 deltas and the older snapshots, each recorded', async (t) => {
  for (const [directive, format] of [
    ['', 'chatgpt-v1'],
    [' #replica:old_format', 'chatgpt-snapshot'],
    [' #replica:batched_patches', 'chatgpt-v1'],
    [' #replica:old_endpoint', 'chatgpt-v1'],
  ] as const) {
    const prompt = `electric cars${directive}`;
    const run = await ask(t, jobOf(prompt, 'reasoning_search'));
    const answer = await run.result;
    t.same(answer, expectedWebAnswer(prompt, 'reasoning_search'), `${format}${directive}`);
    t.equal(answer.formatVersion, format);
    await run.context.close();
  }
});

t.test('a stream without its end: the page judges the end', async (t) => {
  const prompt = 'robot vacuums #replica:no_end';
  const run = await ask(t, jobOf(prompt, 'search'));
  const answer = await run.result;
  t.same(answer.answerContent, expectedWebAnswer(prompt, 'search').answerContent);
  t.ok(
    run.ctx.evidence.list().some((e) => e.kind === 'note' && /no end marker/.test(e.text)),
    'the evidence says the page judged it',
  );
});

t.test('every wall is its named outcome within seconds', async (t) => {
  const cases: Wall[] = [
    // The dead session: /api/auth/session answers {} to its cookie, the page offers Log in.
    ...sessionWalls(replica.expiredStorageState()),
    ['#replica:captcha', undefined, /^captcha: /, 'needs_human'],
    ['#replica:unusual', undefined, /^blocked: Unusual activity/, 'needs_human'],
    [
      '#replica:rate_limit',
      undefined,
      /^rate or quota limit on chatgpt: You've reached our limit/,
      'cooling',
    ],
    ['#replica:quota', undefined, /^rate or quota limit on chatgpt: quota: usage_cap/, 'cooling'],
  ];
  await checkWalls(t, ask, 'insurance', cases);
  await checkRefusal(t, ask, 'insurance', /chatgpt refused to answer/);
});

t.test('a logged-out page needs a person; the imported login is logged in', async (t) => {
  const start = chatgptWeb.startUrl(jobOf('', 'standard'), { settings });
  await checkLoginStates(t, site, replica.storageState(), start, settings);
});

t.test('the replica refuses a chat call without the page-computed sentinel proof', async (t) => {
  const state = replica.storageState();
  const cookie = `${SESSION_COOKIE}=${state.cookies[0]!.value}`;
  const session = (await (
    await fetch(`${replica.url}/api/auth/session`, { headers: { cookie } })
  ).json()) as {
    accessToken: string;
  };
  const auth = {
    authorization: `Bearer ${session.accessToken}`,
    'content-type': 'application/json',
  };
  const call = (headers: Record<string, string>) =>
    fetch(`${replica.url}/backend-api/f/conversation`, {
      method: 'POST',
      headers: { ...auth, ...headers },
      body: '{}',
    });
  const bare = await call({});
  t.equal(bare.status, 403);
  t.match(await bare.json(), { detail: 'missing or spent chat requirements token' });
  const need = (await (
    await fetch(`${replica.url}/backend-api/sentinel/chat-requirements`, {
      method: 'POST',
      headers: auth,
      body: '{}',
    })
  ).json()) as { token: string; proofofwork: { seed: string } };
  // An answer that does not hold for this seed (most do not: one in sixteen holds).
  let wrong = 0;
  while (proofHolds(need.proofofwork.seed, `gAAAAAB${wrong}`)) wrong++;
  const forged = await call({
    'openai-sentinel-chat-requirements-token': need.token,
    'openai-sentinel-proof-token': `gAAAAAB${wrong}`,
  });
  t.equal(forged.status, 403);
  t.match(await forged.json(), { detail: 'invalid proof of work' });
  const spent = await call({ 'openai-sentinel-chat-requirements-token': need.token });
  t.match(await spent.json(), { detail: 'missing or spent chat requirements token' }, 'single use');
});

t.test('the "+" tools menu page: on, then off again on the kept page', async (t) => {
  const menu = await startChatgptReplica({ latencyMs: 3, widgets: 'tools_menu' });
  t.teardown(() => menu.close());
  const s = settingsOf(menu.url);
  const context = await browser.newContext({ storageState: menu.storageState() as never });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(chatgptWeb.startUrl(jobOf('', 'standard'), { settings: s }));
  for (const mode of ['reasoning_search', 'standard', 'search'] as const) {
    const prompt = `heat pumps ${mode}`;
    const ctx = await webContext(page, s);
    try {
      t.same(await chatgptWeb.ask(page, jobOf(prompt, mode), ctx), expectedWebAnswer(prompt, mode));
    } finally {
      await ctx.capture.close();
    }
    t.equal(menu.asked.at(-1)?.mode, mode, `${mode}: the replica was asked it`);
    t.equal(
      await page.getByRole('button', { name: 'Think', exact: true }).count(),
      mode === 'reasoning_search' ? 1 : 0,
      `${mode}: the Think pill shows what was chosen`,
    );
  }
});
