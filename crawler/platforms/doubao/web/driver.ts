/**
 * The Doubao web driver: drives the logged-in chat page and reads the answer
 * from the page's own chat stream, which Doubao sends from a SharedWorker
 * (the capture reaches it through the worker target, crawler/web/capture.ts).
 *
 * Order of work: the page's walls (login dialog, 登录 button, captcha) →
 * 深度思考 / 联网搜索 set through the page's own controls, found by name
 * (crawler/web/controls.ts; a missing one is drift, not needed for off) →
 * prompt typed → `capture.next` for the chat call, then send → status
 * (401/403: login wall) → frames into the versioned parser (each recorded in
 * the evidence) until the end marker; a stream that ends or stalls without
 * one falls back to the DOM (text stable 3 × 500 ms, no stop button) → the
 * effective mode from the request body → the answer's action bar, and the
 * 参考 N 篇资料 panel left open for the screenshot.
 */
import type { Page } from 'playwright';
import type { Job, WebAnswer, WebContext } from '../../types.js';
import { PlatformError } from '../../types.js';
import { hasReasoning, hasSearch } from '../../common/answer.js';
import { buildAnswer } from '../../common/raw-answer.js';
import { timeoutError } from '../../common/errors.js';
import { needsHuman } from '../../../web/signals.js';
import type { CapturedStream } from '../../../web/capture.js';
import { effectiveMode } from './mode.js';
import { effectiveModeOf } from '../../common/ran-mode.js';
import { DoubaoStream } from './stream.js';
import { CONTROLS, SEL, domAnswer, sourcesOpener, visible, wallOnPage } from './page.js';
import { setControl } from '../../../web/controls.js';
import { SITE } from './site-errors.js';
import { abortable } from '../../../web/dom-wait.js';
import { guardedAsk } from '../../../web/guarded-ask.js';
import { domSettled, readChunks } from './waits.js';

/** The chat call, 2026 and samantha paths (`?aid=…&a_bogus=…` follows). */
export const CHAT_CALL = /\/(?:samantha\/)?chat\/completion(?:\?|$)/;
/** How long the opened page may take to show its composer or its login dialog. */
const UI_WAIT_MS = 15_000;
/** How long after send the page may take to make its chat call. */
const SEND_WAIT_MS = 20_000;
/** No byte for a quarter of the platform's time (at most 30 s) and the stream counts as stalled. */
const stallMs = (timeoutMs: number) => Math.min(30_000, Math.max(1_000, timeoutMs / 4));
/** How much of a refused chat call's body goes into the evidence. */
const ERROR_BODY_WAIT_MS = 2_000;
/** How long the answer's action bar and the sources panel may take to show. */
const SETTLE_MS = 5_000;

async function waitForUi(page: Page, signal: AbortSignal): Promise<void> {
  const ui = page
    .locator(`${SEL.composer}, ${SEL.loginDialog}, ${SEL.captcha}`)
    .first()
    .waitFor({ state: 'visible', timeout: UI_WAIT_MS })
    .catch(() => {
      throw new PlatformError(`unexpected ${SITE} page: no composer appeared`, 'failed', true);
    });
  await abortable(ui, signal, 'the chat page did not open in time');
}

async function assertNoWall(page: Page): Promise<void> {
  const wall = await wallOnPage(page);
  if (wall) throw needsHuman(SITE, wall);
}

/** Sends the prompt; resolves with the captured chat call. */
async function send(page: Page, job: Job, ctx: WebContext): Promise<CapturedStream> {
  await page.locator(SEL.composer).first().fill(job.prompt);
  const within = AbortSignal.any([job.signal, AbortSignal.timeout(SEND_WAIT_MS)]);
  const call = ctx.capture.next(CHAT_CALL, within);
  await page.locator(SEL.send).first().click();
  try {
    return await call;
  } catch (err) {
    if (job.signal.aborted) throw timeoutError('no chat call before the deadline');
    await assertNoWall(page);
    throw new PlatformError(`${SITE}: the page sent no chat call (${String(err)})`, 'failed', true);
  }
}

/** A refused call's body (the site's error JSON) goes into the evidence as its one frame. */
async function recordBody(stream: CapturedStream, ctx: WebContext, signal: AbortSignal) {
  const parts: Buffer[] = [];
  await readChunks(
    stream.chunks,
    (c) => parts.push(c),
    () => false,
    ERROR_BODY_WAIT_MS,
    signal,
  );
  if (parts.length > 0) ctx.evidence.frame(Buffer.concat(parts).toString('utf8'));
}

/** A site signal leaves its overlay on the page first, for the needs-human screenshot. */
async function settleOverlay(page: Page): Promise<void> {
  await page
    .locator(SEL.notice)
    .filter({ visible: true })
    .first()
    .waitFor({ state: 'visible', timeout: 2_000 })
    .catch(() => undefined);
}

/** Leaves the finished answer with its sources panel open. */
async function openSources(page: Page): Promise<void> {
  await page
    .locator(SEL.done)
    .last()
    .waitFor({ state: 'visible', timeout: SETTLE_MS })
    .catch(() => undefined);
  const opener = sourcesOpener(page).last();
  if (!(await opener.isVisible().catch(() => false))) return;
  if (await visible(page, SEL.sourcesPanel)) return;
  await opener.click({ timeout: SETTLE_MS }).catch(() => undefined);
  await page
    .locator(SEL.sourcesPanel)
    .first()
    .waitFor({ state: 'visible', timeout: SETTLE_MS })
    .catch(() => undefined);
}

async function drive(page: Page, job: Job, ctx: WebContext): Promise<WebAnswer> {
  await waitForUi(page, job.signal);
  await assertNoWall(page);
  const evidence = ctx.evidence;
  await setControl(page, CONTROLS.deepThinking, hasReasoning(job.mode), { evidence });
  await setControl(page, CONTROLS.webSearch, hasSearch(job.mode), { evidence });

  const stream = await send(page, job, ctx);
  if (stream.status < 200 || stream.status >= 300) await recordBody(stream, ctx, job.signal);
  if (stream.status === 401 || stream.status === 403) {
    await settleOverlay(page);
    throw needsHuman(SITE, `login wall: HTTP ${stream.status} on the chat call`);
  }
  if (stream.status < 200 || stream.status >= 300)
    throw new PlatformError(`${SITE}: HTTP ${stream.status} on the chat call`, 'failed', true);

  const parser = new DoubaoStream((frame) => ctx.evidence.frame(frame));
  try {
    const how = await readChunks(
      stream.chunks,
      (chunk) => parser.push(chunk),
      () => parser.done,
      stallMs(ctx.settings.timeoutMs),
      job.signal,
    );
    if (how === 'ended') parser.end();
  } catch (err) {
    if (err instanceof PlatformError && err.account) await settleOverlay(page);
    throw err;
  }

  let answer;
  let formatVersion: string;
  if (parser.done) {
    answer = parser.result();
    formatVersion = parser.version ?? 'doubao-2026';
  } else {
    ctx.evidence.note('no end marker in the stream: the answer is read from the page');
    await domSettled(page, job.signal);
    // The page may show what the stream could not tell (an expired session's login dialog).
    await assertNoWall(page);
    await openSources(page);
    const dom = await domAnswer(page);
    if (!dom || dom.raw.content.trim() === '')
      throw new PlatformError(`${SITE} returned no answer`, 'failed', true);
    answer = buildAnswer(dom.raw);
    for (const v of dom.videos)
      answer.mediaContent.push({ type: 'video', url: v.url, title: v.title, thumbnail: v.cover });
    formatVersion = 'doubao-dom';
  }
  const fromRequest = () =>
    effectiveMode(stream.requestBody, {
      deepThink: parser.deepThinkSeen || answer.reasoningProcess !== null,
      sources: answer.referenceList.length > 0,
    });
  const report = parser.done ? parser.report() : undefined;
  const mode = effectiveModeOf(job.mode, report, fromRequest, ctx.evidence);
  await openSources(page);
  return { ...answer, effectiveMode: mode, formatVersion };
}

export const askDoubaoWeb = guardedAsk(drive);
