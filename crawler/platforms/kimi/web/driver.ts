/**
 * Drives a logged-in www.kimi.com page to one answer: checks for a login wall
 * or a challenge, sets the 长思考 / 联网搜索 switches through the page's own
 * controls, types the prompt, arms the capture of the chat call, sends, and
 * reads the call's own stream (Connect or the older SSE) through CDP. The
 * stream's end marker decides completion; without one the page does (answer
 * text stable for 3 × 500 ms and no stop button). The page is left with the
 * answer and its sources panel open for the screenshot.
 */
import type { Page } from 'playwright';
import type { CapturedStream } from '../../../web/capture.js';
import { needsHuman, rateLimited, refused } from '../../../web/signals.js';
import { hasReasoning, hasSearch } from '../../common/answer.js';
import { buildAnswer } from '../../common/raw-answer.js';
import { PlatformError, type Job, type WebAnswer, type WebContext } from '../../types.js';
import { SEL, SWITCH, type PageSignals } from './dom.js';
import { effectiveMode } from './request-mode.js';
import { effectiveModeOf } from '../../common/ran-mode.js';
import { KimiStreamParser } from './stream.js';
import { bounded } from '../../../web/dom-wait.js';
import { guardedAsk } from '../../../web/guarded-ask.js';
import { settledAnswer, until } from './waits.js';

const SITE = 'kimi';
/** The chat calls of the current and the older build. */
export const CHAT_CALL =
  /\/apiv2\/kimi\.gateway\.chat\.v1\.ChatService\/Chat(\?|$)|\/api\/chat\/[^/]+\/completion\/stream(\?|$)/;
const UI_WAIT_MS = 10_000;
const SETTLE_WAIT_MS = 15_000;

/** A login wall or challenge the page shows, as the failure it means. */
export function pageBlock(s: PageSignals): PlatformError | undefined {
  if (s.captcha) return needsHuman(SITE, `captcha: ${s.captcha}`);
  if (s.loginModal) return needsHuman(SITE, 'login wall: the page shows its login modal');
  if (s.ui && !s.loggedIn) return needsHuman(SITE, 'login wall: the page is logged out');
  return undefined;
}

/** Waits for the chat UI (or a login wall) on the opened page. */
async function openedPage(page: Page, signal: AbortSignal): Promise<PageSignals> {
  const limit = AbortSignal.any([signal, AbortSignal.timeout(UI_WAIT_MS)]);
  try {
    // Polled often: on a kept page the UI is usually there a moment after the load.
    return await until(
      page,
      (s) => (s.ui || s.loginModal || s.captcha ? s : undefined),
      limit,
      100,
    );
  } catch (err) {
    if (signal.aborted) throw err;
    const title = await page.title().catch(() => '');
    if (/just a moment|attention required/i.test(title)) {
      throw needsHuman(SITE, `Cloudflare interstitial "${title}"`);
    }
    throw new PlatformError('unexpected page: the Kimi chat UI did not appear', 'failed', true);
  }
}

async function setSwitch(page: Page, label: string, on: boolean): Promise<void> {
  const control = page.locator('[role="switch"]', { hasText: label }).first();
  if ((await control.count()) === 0) {
    if (on) throw new PlatformError(`kimi: the page has no ${label} switch`, 'failed', true);
    return;
  }
  if ((await control.getAttribute('aria-checked')) !== String(on)) await control.click();
  if ((await control.getAttribute('aria-checked')) !== String(on)) {
    throw new PlatformError(
      `kimi: the ${label} switch did not turn ${on ? 'on' : 'off'}`,
      'failed',
      true,
    );
  }
}

/** A refused chat call (no stream): its status as the failure it means. */
async function refusedCall(stream: CapturedStream, signal: AbortSignal): Promise<PlatformError> {
  let body = '';
  const read = (async () => {
    for await (const chunk of stream.chunks) body += chunk.toString('utf8');
  })();
  await bounded(read, AbortSignal.any([signal, AbortSignal.timeout(5_000)])).catch(() => undefined);
  const said = body.trim().slice(0, 200);
  if (stream.status === 401 || stream.status === 403) {
    return needsHuman(
      SITE,
      `login wall: HTTP ${stream.status} on the chat call${said ? ` (${said})` : ''}`,
    );
  }
  if (stream.status === 429) return rateLimited(SITE, said || 'HTTP 429');
  return new PlatformError(`kimi chat call failed: HTTP ${stream.status} ${said}`, 'failed', true);
}

async function drive(page: Page, job: Job, ctx: WebContext): Promise<WebAnswer> {
  const { signal } = job;
  const block = pageBlock(await openedPage(page, signal));
  if (block) throw block;

  await setSwitch(page, SWITCH.thinking, hasReasoning(job.mode));
  await setSwitch(page, SWITCH.search, hasSearch(job.mode));
  await page.locator(SEL.editor).click();
  await page.keyboard.insertText(job.prompt);

  const call = ctx.capture.next(CHAT_CALL, signal);
  await page.locator(SEL.send).click();
  // A page that shows a login wall or challenge instead of calling.
  const blocked = until(page, pageBlock, signal);
  blocked.catch(() => undefined);
  const stream = await Promise.race([call, blocked.then((err) => Promise.reject(err))]);
  if (stream.status < 200 || stream.status >= 300) throw await refusedCall(stream, signal);

  const parser = new KimiStreamParser({
    mimeType: stream.mimeType,
    onFrame: (frame) => ctx.evidence.frame(frame),
  });
  const read = (async () => {
    for await (const chunk of stream.chunks) parser.push(chunk);
    parser.end();
    return 'stream' as const;
  })();
  read.catch(() => undefined);
  const dom = settledAnswer(page, signal).then(() => 'dom' as const);
  dom.catch(() => undefined);
  // The page may show a login wall or challenge that the stream never reports.
  let ended = await Promise.race([read, dom, blocked.then((err) => Promise.reject(err))]);
  if (ended === 'stream' && !parser.done) {
    ctx.evidence.note('the stream ended without its end marker: completion judged from the page');
    ended = await Promise.race([dom, blocked.then((err) => Promise.reject(err))]);
  }
  if (ended === 'dom' && !parser.done) {
    ctx.evidence.note('the page settled before the stream ended: answer read as far as it came');
  }
  if (!parser.formatVersion)
    throw new PlatformError('kimi: the chat call sent nothing', 'failed', true);

  // The page finishes rendering (sources button, follow-ups) once its stop button goes.
  const settle = AbortSignal.any([signal, AbortSignal.timeout(SETTLE_WAIT_MS)]);
  const after = await until(page, (s) => (s.streaming ? undefined : s), settle).catch(
    () => undefined,
  );
  if (after) {
    const late = pageBlock(after);
    if (late) throw late;
  }

  const raw = parser.raw();
  if (raw.refusal.trim() !== '') throw refused(SITE, raw.refusal.trim());
  if (raw.content.trim() === '' && after?.answerText) raw.content = after.answerText;
  const answer = buildAnswer(raw);
  if (answer.answerContent.trim() === '') {
    throw new PlatformError('kimi returned no answer (empty content)', 'failed', true);
  }
  const report = parser.done ? parser.report() : undefined;
  const mode = effectiveModeOf(
    job.mode,
    report,
    () => effectiveMode(stream.requestBody),
    ctx.evidence,
  );
  await openSources(page, ctx);
  return { ...answer, effectiveMode: mode, formatVersion: parser.formatVersion };
}

/** Opens the answer's sources panel, so the screenshot shows them. */
async function openSources(page: Page, ctx: WebContext): Promise<void> {
  const button = page.locator(SEL.sourcesButton).last();
  if ((await button.count()) === 0) return;
  await button.click();
  await page
    .waitForSelector(SEL.sourcesPanel, { state: 'visible', timeout: 5_000 })
    .catch(() => ctx.evidence.note('the sources panel did not open'));
}

export const askKimiWeb = guardedAsk(drive);

/** Whether the opened page shows a logged-in session. */
export async function kimiLoginState(
  page: Page,
): Promise<{ loggedIn: true } | { loggedIn: false; reason: string }> {
  const s = await openedPage(page, AbortSignal.timeout(UI_WAIT_MS)).catch(() => undefined);
  if (!s) return { loggedIn: false, reason: 'the Kimi chat UI did not appear' };
  const block = pageBlock(s);
  return block ? { loggedIn: false, reason: block.message } : { loggedIn: true };
}
