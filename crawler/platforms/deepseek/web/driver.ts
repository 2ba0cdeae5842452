/**
 * The DeepSeek web driver: drives the logged-in chat page the way a person
 * does (mode chips, composer, send), reads the page's own chat call through
 * CDP, and parses its patch stream. The page's script creates the session
 * and solves the proof-of-work for `X-Ds-Pow-Response`; the driver never
 * calls the API itself.
 *
 * Completion: `response/status` FINISHED. A stream that ends without it, or
 * stalls, falls back to the page (answer text stable 3 × 500 ms, no stop
 * button). The effective mode is what the captured request asked for
 * (`thinking_enabled`, `search_enabled`), or the stream's own flags.
 */
import type { Page } from 'playwright';
import { PlatformError, type Job, type WebAnswer, type WebContext } from '../../types.js';
import { hasReasoning, hasSearch } from '../../common/answer.js';
import { buildAnswer } from '../../common/raw-answer.js';
import { refused } from '../../../web/signals.js';
import { waitForStableText } from '../../../web/dom-wait.js';
import { guardedAsk } from '../../../web/guarded-ask.js';
import { chatCallFailure } from './envelope.js';
import {
  openSources,
  SEARCH_LABEL,
  SELECTORS,
  setChip,
  THINK_LABEL,
  untilChatReady,
  watchForWalls,
} from './page.js';
import { effectiveMode } from './mode.js';
import { effectiveModeOf } from '../../common/ran-mode.js';
import { readAll, readStream } from './read-stream.js';
import { DeepseekStream, SITE } from './stream.js';

export const COMPLETION_URL = /\/api\/v0\/chat\/completion(?:\?|$)/;
/** How long the opened page may take to show the composer. */
const UI_WAIT_MS = 15_000;
/** How long the page's script may take (session, proof-of-work) before its chat call starts. */
const CALL_WAIT_MS = 30_000;
async function drive(page: Page, job: Job, ctx: WebContext): Promise<WebAnswer> {
  const { signal } = job;
  await untilChatReady(page, UI_WAIT_MS, signal);
  await setChip(page, THINK_LABEL, hasReasoning(job.mode), signal);
  await setChip(page, SEARCH_LABEL, hasSearch(job.mode), signal);
  await page.locator(SELECTORS.composer).fill(job.prompt);

  const callSignal = AbortSignal.any([signal, AbortSignal.timeout(CALL_WAIT_MS)]);
  const call = ctx.capture.next(COMPLETION_URL, callSignal);
  const send = page.locator(SELECTORS.send).first();
  if ((await send.count()) > 0 && (await send.isVisible())) await send.click();
  else await page.locator(SELECTORS.composer).press('Enter');

  const watching = new AbortController();
  const walls = watchForWalls(page, AbortSignal.any([signal, watching.signal]));
  walls.catch(() => undefined);
  let stream;
  try {
    stream = await Promise.race([call, walls]);
  } catch (err) {
    if (signal.aborted) throw err;
    if (callSignal.aborted) {
      throw new PlatformError(`${SITE}: the page never sent its chat call`, 'failed', true);
    }
    throw err;
  } finally {
    watching.abort();
  }

  if (!/event-stream/.test(stream.mimeType) || stream.status !== 200) {
    const body = await readAll(stream.chunks, signal);
    ctx.evidence.frame(body);
    throw chatCallFailure(stream.status, body);
  }
  const parser = new DeepseekStream();
  await readStream(stream.chunks, parser, ctx.evidence, signal);
  const raw = parser.result();
  let formatVersion = parser.formatVersion;
  if (!parser.finished) {
    ctx.evidence.note('no end marker: waiting for the page to finish the answer');
    const shown = await waitForStableText(page, {
      selector: SELECTORS.answer,
      stopSelector: SELECTORS.stop,
      signal,
    });
    if (raw.content.trim() === '') {
      raw.content = shown.trim();
      formatVersion = 'deepseek-dom';
    }
  }
  if (raw.refusal) throw refused(SITE, raw.refusal);
  const answer = buildAnswer(raw);
  if (answer.answerContent.trim() === '') {
    throw new PlatformError(`${SITE} returned no answer (empty content)`, 'failed', true);
  }
  const report = parser.finished ? parser.report() : undefined;
  const mode = effectiveModeOf(
    job.mode,
    report,
    () => effectiveMode(stream.requestBody, parser),
    ctx.evidence,
  );
  if (answer.referenceList.length > 0 && !(await openSources(page))) {
    ctx.evidence.note('the sources panel opener was not found');
  }
  return { ...answer, effectiveMode: mode, formatVersion };
}

export const askDeepseekWeb = guardedAsk(drive);
