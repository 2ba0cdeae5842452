/**
 * The Yuanbao web driver: drives the logged-in chat page the way a person
 * does (the model picker, 深度思考 and 联网搜索 through the page's own
 * controls, the composer, send), reads the page's own chat call
 * (`POST /api/chat/{conversationId}`, signed by the page's script with
 * `x-uskey` / `x-timestamp` / `x-bus-params-md5`) through CDP and parses its
 * SSE stream. When the stream announced a search but carried no docs, the
 * conversation's detail is read again from the page, with its own session.
 *
 * Completion: `data: [DONE]`. A stream that ends without it, or stalls,
 * falls back to the page (answer text stable, no stop control).
 */
import type { Page } from 'playwright';
import { PlatformError, type Job, type WebAnswer, type WebContext } from '../../types.js';
import { hasReasoning, hasSearch } from '../../common/answer.js';
import { buildAnswer } from '../../common/raw-answer.js';
import { setControl } from '../../../web/controls.js';
import { waitForStableText } from '../../../web/dom-wait.js';
import { guardedAsk } from '../../../web/guarded-ask.js';
import { refused } from '../../../web/signals.js';
import { docsOfDetail } from './detail.js';
import { chatCallFailure } from './envelope.js';
import { effectiveMode, wantsDeepseek } from './mode.js';
import { CONTROLS, openSources, PAGE } from './page.js';
import { readAll, readStream } from './read-stream.js';
import { SITE, YuanbaoStream } from './stream.js';
import { untilChatReady, watchForWalls } from './walls.js';

export const CHAT_URL = /\/api\/chat\/[\w-]+(?:\?|$)/;
const DETAIL_PATH = '/api/user/agent/conversation/v1/detail';
/** How long the opened page may take to show the composer (a Next.js app that hydrates slowly). */
const UI_WAIT_MS = 15_000;
/** How long the page's script may take (conversation, signature) before its chat call starts. */
const CALL_WAIT_MS = 20_000;
/** Silence after which a stream without `[DONE]` counts as stalled. */
const STALL_MS = 20_000;

async function send(page: Page): Promise<void> {
  const control = page
    .getByRole('button', { name: new RegExp(PAGE.send.names.join('|')) })
    .or(page.locator(PAGE.send.fallbacks.join(', ')))
    .filter({ visible: true })
    .first();
  if (await control.isVisible().catch(() => false)) await control.click({ timeout: 2_500 });
  else await page.locator(PAGE.composer).first().press('Enter');
}

/** The conversation's docs as the site stored them, read with the page's own session. */
async function detailDocs(page: Page, conversationId: string): Promise<unknown[] | undefined> {
  const detail = await page.evaluate(
    async ([path, id]) => {
      const r = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ conversationId: id }),
      });
      return r.ok ? ((await r.json()) as unknown) : null;
    },
    [DETAIL_PATH, conversationId] as const,
  );
  return docsOfDetail(detail);
}

async function drive(page: Page, job: Job, ctx: WebContext): Promise<WebAnswer> {
  const { signal } = job;
  const evidence = { evidence: ctx.evidence };
  await untilChatReady(page, UI_WAIT_MS, signal);
  await setControl(page, CONTROLS.model, wantsDeepseek(ctx.settings, job.mode), evidence);
  await setControl(page, CONTROLS.thinking, hasReasoning(job.mode), evidence);
  await setControl(page, CONTROLS.search, hasSearch(job.mode), evidence);
  await page.locator(PAGE.composer).first().fill(job.prompt);

  const callSignal = AbortSignal.any([signal, AbortSignal.timeout(CALL_WAIT_MS)]);
  const call = ctx.capture.next(CHAT_URL, callSignal);
  await send(page);

  const watching = new AbortController();
  const walls = watchForWalls(page, AbortSignal.any([signal, watching.signal]));
  walls.catch(() => undefined);
  let stream;
  try {
    stream = await Promise.race([call, walls]);
  } catch (err) {
    if (signal.aborted) throw err;
    if (callSignal.aborted)
      throw new PlatformError(`${SITE}: the page never sent its chat call`, 'failed', true);
    throw err;
  } finally {
    watching.abort();
  }

  if (!/event-stream/.test(stream.mimeType) || stream.status !== 200) {
    const body = await readAll(stream.chunks, signal);
    ctx.evidence.frame(body);
    throw chatCallFailure(stream.status, body);
  }
  const parser = new YuanbaoStream();
  await readStream(stream.chunks, parser, ctx.evidence, signal, STALL_MS);
  let formatVersion = parser.formatVersion;
  const conversationId = new URL(stream.url).pathname.split('/').pop()!;
  if (parser.announcedSearch && !parser.hasDocs) {
    ctx.evidence.note(
      'the stream announced a search without its docs: reading the conversation detail',
    );
    const docs = await detailDocs(page, conversationId);
    if (docs) parser.setDocs(docs);
  }
  const raw = parser.result();
  if (!parser.finished) {
    ctx.evidence.note('no [DONE]: waiting for the page to finish the answer');
    const shown = await waitForStableText(page, {
      selector: PAGE.dom.answer,
      stopSelector: PAGE.dom.stop,
      signal,
    });
    if (raw.content.trim() === '') {
      raw.content = shown.trim();
      formatVersion = `${SITE}-dom`;
    }
  }
  if (raw.refusal) throw refused(SITE, raw.refusal);
  const answer = buildAnswer(raw);
  if (answer.answerContent.trim() === '')
    throw new PlatformError(`${SITE} returned no answer (empty content)`, 'failed', true);
  if (answer.referenceList.length > 0 && !(await openSources(page).catch(() => false)))
    ctx.evidence.note('the sources drawer opener was not found');
  return { ...answer, effectiveMode: effectiveMode(parser.ran()), formatVersion };
}

export const askYuanbaoWeb = guardedAsk(drive);
