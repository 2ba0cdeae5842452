/**
 * The sandbox's web driver: drives the local chat page (see page.ts for its
 * DOM contract) and reads the answer back from the DOM.
 *
 * Scripts run in the page are plain strings, so no loader can rewrite them
 * (tsx/esbuild's keepNames would inject helpers that do not exist there).
 */
import { errors, type Page } from 'playwright';
import {
  PlatformError,
  type Job,
  type WebAnswer,
  type WebContext,
  type WebDriver,
} from '../types.js';
import { hasReasoning, hasSearch } from '../common/answer.js';
import { classify, parseRetryAfter } from '../common/errors.js';
import { buildAnswer, emptyRaw, type RawAnswer } from '../common/raw-answer.js';
import { checkAnswer } from './errors.js';
import { guardedAsk } from '../../web/guarded-ask.js';

/** How long the chat UI may take to appear on the opened page. */
const UI_WAIT_MS = 10_000;

const STATE_SCRIPT = `(() => (document.body && document.body.dataset.state) || null)()`;

/** Reads everything the driver needs from the page, in one round trip. */
const EXTRACT_SCRIPT = `(() => {
  const b = document.body;
  const text = (el) => (el ? el.textContent || '' : '');
  const answer = document.querySelector('#answer');
  const r = document.querySelector('#reasoning');
  const rc = r ? r.querySelector('.reasoning-content') : null;
  return {
    state: b.dataset.state || null,
    errorStatus: b.getAttribute('data-error-status'),
    retryAfter: b.getAttribute('data-retry-after'),
    error: b.getAttribute('data-error'),
    markdown: answer ? answer.getAttribute('data-markdown') || '' : '',
    reasoning: r && !r.hidden && rc ? (rc.getAttribute('data-raw') ?? rc.textContent ?? '') : '',
    reasoningSummary: r && !r.hidden ? text(r.querySelector('.reasoning-summary')) : '',
    references: Array.from(document.querySelectorAll('#references li[data-index]')).map((li) => {
      const a = li.querySelector('a.ref-title');
      const icon = li.querySelector('.ref-icon');
      return {
        index: Number(li.getAttribute('data-index')),
        title: text(a),
        url: a ? a.getAttribute('href') || '' : '',
        site: text(li.querySelector('.ref-site')),
        icon: icon ? icon.getAttribute('data-icon') || '' : '',
        cited: li.getAttribute('data-cited') === 'true',
      };
    }),
    related: Array.from(document.querySelectorAll('#related li')).map((li) => text(li).trim()),
    media: Array.from(document.querySelectorAll('#media img')).map((img) => ({
      url: img.getAttribute('src') || '',
      title: img.getAttribute('alt') || '',
    })),
  };
})()`;

/** What EXTRACT_SCRIPT returns. */
export interface DomSnapshot {
  state: string | null;
  errorStatus: string | null;
  retryAfter: string | null;
  error: string | null;
  markdown: string;
  reasoning: string;
  reasoningSummary: string;
  references: {
    index: number;
    title: string;
    url: string;
    site: string;
    icon: string;
    cited: boolean;
  }[];
  related: string[];
  media: { url: string; title: string }[];
}

/** The answer fields of a DOM snapshot, in the accumulator's terms. */
export function rawFromSnapshot(s: DomSnapshot): RawAnswer {
  const raw = emptyRaw();
  raw.content = s.markdown;
  raw.reasoningContent = s.reasoning;
  raw.reasoningSummary = s.reasoningSummary;
  raw.searchResults = s.references
    .filter((r) => Number.isInteger(r.index) && r.url)
    .map((r) => ({ index: r.index, title: r.title, url: r.url, site: r.site, icon: r.icon }));
  raw.citedIndices = s.references.filter((r) => r.cited).map((r) => r.index);
  raw.relatedQuestions = s.related.filter((q) => q !== '');
  raw.images = s.media
    .filter((m) => m.url)
    .map((m) => (m.title ? { url: m.url, title: m.title } : { url: m.url }));
  return raw;
}

const loginWall = () =>
  new PlatformError('login wall: the platform asks to log in', 'failed', false);

async function drive(page: Page, job: Job, ctx: WebContext): Promise<WebAnswer> {
  const waitMs = ctx.settings.timeoutMs > 0 ? ctx.settings.timeoutMs : 0;
  let state = (await page.evaluate(STATE_SCRIPT)) as string | null;
  if (state === null) {
    try {
      await page.waitForSelector('body[data-state]', {
        state: 'attached',
        timeout: waitMs > 0 ? Math.min(waitMs, UI_WAIT_MS) : UI_WAIT_MS,
      });
    } catch (err) {
      if (err instanceof errors.TimeoutError) {
        throw new PlatformError('unexpected page: the chat UI did not appear', 'failed', true);
      }
      throw err;
    }
    state = (await page.evaluate(STATE_SCRIPT)) as string | null;
  }
  if (state === 'login') throw loginWall();

  await page.locator('#toggle-reasoning').setChecked(hasReasoning(job.mode));
  await page.locator('#toggle-search').setChecked(hasSearch(job.mode));
  await page.locator('#prompt').fill(job.prompt);
  const turn = Number((await page.getAttribute('body', 'data-turn')) ?? '0') || 0;
  await page.locator('#send').click();
  await page.waitForFunction(
    `(() => { const b = document.body; if (!b) return false; const s = b.dataset.state;
      return s === 'login' || (Number(b.dataset.turn || 0) > ${turn} && (s === 'done' || s === 'error')); })()`,
    undefined,
    { timeout: waitMs, polling: 100 },
  );

  const snap = (await page.evaluate(EXTRACT_SCRIPT)) as DomSnapshot;
  if (snap.state === 'login') throw loginWall();
  if (snap.state === 'error') {
    const status = Number(snap.errorStatus ?? '0') || 0;
    if (status === 0) {
      throw new PlatformError(
        `the answer stream broke off: ${snap.error ?? 'unknown error'}`,
        'failed',
        true,
      );
    }
    // The page's own error reply, classified as the vendors' errors are.
    throw classify('sandbox', {
      status,
      message: snap.error ?? undefined,
      retryAfterSeconds: parseRetryAfter(snap.retryAfter),
    });
  }
  const answer = checkAnswer(buildAnswer(rawFromSnapshot(snap)));
  // The simulated page always runs the mode its toggles were set to.
  return { ...answer, effectiveMode: job.mode, formatVersion: 'sandbox-dom-1' };
}

export const askSandboxWeb = guardedAsk(drive);

export const sandboxWeb: WebDriver = {
  startUrl: (_job, ctx) => ctx.settings.webUrl,
  // The chat page, its script and its answer stream are all served by the one stand-in.
  origins: (ctx) => [new URL(ctx.settings.webUrl).origin],
  ask: askSandboxWeb,
  answerSelector: '#answer',
  loginUrl: (ctx) => ctx.settings.webUrl,
  loginState: async (page) => {
    await page.waitForSelector('body[data-state]', { state: 'attached', timeout: UI_WAIT_MS });
    return (await page.evaluate(STATE_SCRIPT)) === 'login'
      ? { loggedIn: false, reason: 'the page shows its login form' }
      : { loggedIn: true };
  },
};
