/**
 * The sandbox web driver in real headless Chromium against a real sandbox
 * server on 127.0.0.1:0, compared with the API driver.
 */
import t from 'tap';
import { chromium, type Page } from 'playwright';
import { MODES, type Mode } from '../../../../services/shared/platforms.js';
import { sandboxDriver } from '../../../../crawler/platforms/sandbox/index.js';
import { sandboxAnswer } from '../../../../sandbox/answers.js';
import { startSandboxServer } from '../../../../sandbox/server.js';
import { CHROMIUM_ARGS } from '../../../../crawler/browser.js';
import type { Job, PlatformSettings, WebAnswer } from '../../../../crawler/platforms/types.js';
import type { Answer } from '../../../../services/shared/contracts/answer.js';
import { failure } from '../../../helpers/platform-drivers.js';
import { webContext } from '../../../helpers/web-context.js';
import { chromiumPath } from '../../../../infra/processes.js';
import { screenshotOf } from '../../../../crawler/screenshot.js';

const server = await startSandboxServer({ latencyMs: 60 });
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  headless: true,
  args: CHROMIUM_ARGS,
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
t.teardown(async () => {
  await browser.close();
  await server.close();
});

const settings: PlatformSettings = {
  apiBaseUrl: server.url,
  webUrl: `${server.url}/`,
  timeoutMs: 15_000,
};
const web = sandboxDriver.web!;
const api = sandboxDriver.api!;

function job(prompt: string, mode: Mode = 'standard', signal = new AbortController().signal): Job {
  return { prompt, mode, signal };
}

/** The spec's answer fields of a web answer (without what ran and the format version). */
function answerOnly({ effectiveMode: _m, formatVersion: _f, ...answer }: WebAnswer): Answer {
  return answer;
}

/** Opens a page the way the executor does, then lets the driver ask. */
async function askWeb(
  j: Job,
  s: PlatformSettings = settings,
): Promise<{ page: Page; answer: Promise<unknown> }> {
  const page = await context.newPage();
  page.on('pageerror', (e) => t.fail(`page error: ${e.message}`));
  await page.goto(web.startUrl(j, { settings: s }));
  return { page, answer: web.ask(page, j, await webContext(page, s)).then(answerOnly) };
}

t.test('all four modes: the web answer equals the API answer and answers.ts', async (t) => {
  const prompt = 'best CRM for startups 2025';
  for (const mode of MODES) {
    const { page, answer } = await askWeb(job(prompt, mode));
    const fromWeb = await answer;
    const fromApi = await api.ask(job(prompt, mode), { settings, fetch });
    // The sandbox's API names the model it answered with; its page shows no model label.
    const { modelReported, ...apiFields } = fromApi;
    t.match(modelReported, /^sandbox-/, `${mode}: the API names its model`);
    t.same(fromWeb, apiFields, `${mode}: web = api, but for the model`);
    t.same(fromWeb, sandboxAnswer(prompt, mode), `${mode}: = answers.ts`);
    t.equal(await page.getAttribute('body', 'data-state'), 'done');
    if (mode === 'reasoning_search') {
      const flags = await page.$$eval('#references li[data-index]', (lis) =>
        lis.map((li) => li.getAttribute('data-cited')),
      );
      t.ok(flags.includes('true') && flags.includes('false'), 'cited and uncited sources shown');
      t.ok(await page.locator('#answer table').count(), 'markdown rendered as html');
      t.ok(await page.locator('#answer sup.cite a[href^="https://"]').count(), 'citation links');
      t.ok(await page.locator('#media img').count());
      const png = await screenshotOf(page, { fullPage: true });
      t.same(
        [...png.subarray(0, 8)],
        [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
        'screenshot is a PNG',
      );
      t.ok(png.length > 10_000, 'and not blank');
    }
    await page.close();
  }
  const rec = server.stats.byPath('/web/chat').at(-1)!;
  t.equal(rec.remoteAddress, '127.0.0.1');
  t.equal(rec.prompt, prompt);
  t.equal(rec.channel, 'web');
  t.ok(server.stats.byPath('/').length >= 4, 'page loads are recorded');
});

t.test('a Chinese prompt with Markdown specials survives exactly', async (t) => {
  const prompt = '推荐*几款* [1] 降噪耳机 | `x` <b>?';
  const { page, answer } = await askWeb(job(prompt, 'search'));
  t.same(await answer, sandboxAnswer(prompt, 'search'));
  t.equal(await page.locator('#user-msg').textContent(), prompt);
  await page.close();
});

t.test('the same page can be asked twice', async (t) => {
  const { page, answer } = await askWeb(job('first question', 'standard'));
  await answer;
  const second = await web.ask(
    page,
    job('second question', 'reasoning'),
    await webContext(page, settings),
  );
  t.same(answerOnly(second), sandboxAnswer('second question', 'reasoning'));
  t.equal(second.effectiveMode, 'reasoning');
  await page.close();
});

t.test('login wall after sending, and a login wall page', async (t) => {
  const { page, answer } = await askWeb(job('please #fail:login', 'search'));
  const e = await failure(answer);
  t.equal(e.status, 'failed');
  t.equal(e.retryable, false);
  t.match(e.message, /login wall/);
  t.equal(await page.getAttribute('body', 'data-state'), 'login');
  t.equal(await page.locator('input[type=password]').count(), 1);
  await page.close();

  const walled = await startSandboxServer({ loginWall: true });
  const s2 = { ...settings, webUrl: `${walled.url}/` };
  const w = await askWeb(job('hello', 'standard'), s2);
  const e2 = await failure(w.answer);
  t.match(e2.message, /login wall/);
  t.equal(e2.retryable, false);
  t.equal(walled.stats.byPath('/web/chat').length, 0, 'nothing was sent');
  await w.page.close();
  await walled.close();
});

t.test('web failures map like the API', async (t) => {
  const cases: [string, string, boolean, number | undefined, RegExp][] = [
    ['#fail:429', 'failed', true, 1, /429/],
    ['#fail:500', 'failed', true, undefined, /HTTP 500/],
    ['#fail:503', 'failed', true, undefined, /HTTP 503/],
    ['#fail:empty', 'failed', false, undefined, /returned no answer/],
    ['#fail:refuse', 'failed', false, undefined, /refused/],
  ];
  // One page for all of them: the chat also recovers from its error state.
  const page = await context.newPage();
  await page.goto(settings.webUrl);
  for (const [directive, status, retryable, retryAfter, message] of cases) {
    const e = await failure(
      web.ask(page, job(`web ${directive}`, 'reasoning'), await webContext(page, settings)),
    );
    t.equal(e.status, status, `${directive} status`);
    t.equal(e.retryable, retryable, `${directive} retryable`);
    t.equal(e.retryAfterSeconds, retryAfter, `${directive} retry after`);
    t.match(e.message, message, `${directive} message`);
  }
  t.equal(await page.getAttribute('body', 'data-state'), 'done');
  t.same(
    answerOnly(
      await web.ask(page, job('after the failures', 'search'), await webContext(page, settings)),
    ),
    sandboxAnswer('after the failures', 'search'),
  );
  await page.close();
});

t.test('#fail:timeout on the web honours the job signal', async (t) => {
  const page = await context.newPage();
  await page.goto(settings.webUrl);
  // The deadline starts once the page is open, so a slow machine cannot end it before the send.
  const controller = new AbortController();
  const answer = web.ask(
    page,
    job('web stall #fail:timeout', 'search', controller.signal),
    await webContext(page, settings),
  );
  await page.waitForSelector('body[data-state=streaming]');
  const started = Date.now();
  setTimeout(() => controller.abort(), 300);
  const e = await failure(answer);
  t.equal(e.status, 'timeout');
  t.equal(e.retryable, true);
  t.ok(Date.now() - started >= 250, 'ended by the abort');
  t.equal(await page.getAttribute('body', 'data-state'), 'streaming', 'the page is still waiting');
  await page.close();
});

t.test('#fail:503x1 on the web: fails once, then answers on a new page', async (t) => {
  const prompt = 'web retry #fail:503x1';
  const first = await askWeb(job(prompt, 'search'));
  t.equal((await failure(first.answer)).retryable, true);
  await first.page.close();
  const second = await askWeb(job(prompt, 'search'));
  t.same(await second.answer, sandboxAnswer(prompt, 'search'));
  await second.page.close();
});

t.test('a page without the chat UI is a retryable failure', async (t) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/healthz`);
  const e = await failure(
    web.ask(page, job('x'), await webContext(page, { ...settings, timeoutMs: 500 })),
  );
  t.equal(e.status, 'failed');
  t.equal(e.retryable, true);
  t.match(e.message, /chat UI/);
  await page.close();
});
