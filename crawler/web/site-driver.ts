/**
 * The site-driver kit: one algorithm for every consumer site, a site spec
 * (site-spec.ts) for what differs. `siteDriver(spec)` is the site's whole
 * WebDriver. The algorithm, the way a person uses the site:
 *
 * 1. wait for the chat page or a wall (recognise.ts: a composer by role, a
 *    login wall or captcha by what it asks) on the site's documented entry,
 *    redirects followed; a wall ends the sub task at once with `needs_human`;
 *    a page that is neither (a 404 or error page at once, by its HTTP status;
 *    a landing page's link to the chat is followed once; else after
 *    UI_WAIT_MS) sends the page to the origin root once, since the start page
 *    moves; still neither is drift (`page_unrecognised`, both addresses), its
 *    DOM and screenshot in the evidence;
 * 2. bring deep thinking and web search to the job's mode through the
 *    page's own controls, by role and name, off as well as on, and read them
 *    back (controls.ts, mode-controls.ts): a control the mode needs off may
 *    be absent, a missing control the mode needs fails in seconds with its
 *    name;
 * 3. type the prompt, arm the capture of the chat call (spec.call.url), send;
 * 4. race the call against walls; a response that is not the stream is the
 *    site's error (spec.call.failure), its body in the evidence;
 * 5. read the frames into the site's reader (read-frames.ts), every frame
 *    into the evidence; a stream without its end marker leaves completion to
 *    the page (text stable 3 × 500 ms, no stop control);
 * 6. two witnesses (witness.ts, page-witness.ts): the answer assembled from
 *    a complete stream is compared with the text the page rendered; when
 *    they differ beyond formatting the stream is not trusted: the answer is
 *    the site's DOM reader's where it gives the whole answer (`dom.whole`,
 *    `answerSource: 'dom'`), else the sub task fails as `format_drift`
 *    naming the frames the parser did not apply;
 * 7. refusal, empty answer, effective mode (spec.effectiveMode), which
 *    must carry every control the kit set (else `mode_not_applied`), the model
 *    the stream names or else the page's model label (null when neither),
 *    the sources panel left open for the screenshot.
 *
 * Errors name the first cause: the wall, the missing control, the
 * unrecognised page, the drift; anything the browser throws besides is a
 * retryable browser error (guarded-ask.ts).
 */
import type { Page } from 'playwright';
import type { Mode } from '../../services/shared/platforms.js';
import type { Answer } from '../../services/shared/contracts/answer.js';
import { hasReasoning, hasSearch } from '../platforms/common/answer.js';
import { buildAnswer, emptyRaw, type RawAnswer } from '../platforms/common/raw-answer.js';
import { timeoutError } from '../platforms/common/errors.js';
import {
  PlatformError,
  type CapturedStream,
  type Job,
  type LoginState,
  type WebAnswer,
  type WebContext,
  type WebDriver,
} from '../platforms/types.js';
import { anyOf, CLICK_MS, CONTROL_MS, shownChoice } from './controls.js';
import { pause, waitForStableText } from './dom-wait.js';
import { guardedAsk } from './guarded-ask.js';
import { NAVIGATION_TIMEOUT_MS, startNewChat } from './new-chat.js';
import { readBody, readFrames } from './read-frames.js';
import { COMPOSERS, viewPage, wallOf, type PageView } from './recognise.js';
import {
  driverDrift,
  formatDrift,
  modeNotApplied,
  needsHuman,
  rateLimited,
  refused,
  sessionExpired,
} from './signals.js';
import { witnessPage } from './page-witness.js';
import { pageReadingLacks } from './page-reading.js';
import { effectiveModeOf, notApplied, type ModeSet } from '../platforms/common/ran-mode.js';
import { setModeControls } from './mode-controls.js';
import type { FrameReader, SiteSpec } from './site-spec.js';

/** The parts of a spec that do not depend on its frame reader. */
type Site = Omit<SiteSpec, 'frames' | 'effectiveMode' | 'asked'>;

/** How long the opened page may take to show its composer or a wall. */
const UI_WAIT_MS = 15_000;
/**
 * How long a loaded page that shows neither, but a link to the chat, is given
 * to draw its composer before the link is followed (a landing page).
 */
const LINK_SETTLE_MS = 1_500;
/**
 * The evidence's note when the chat page is recognised: the timeline then tells a slow page load
 * from a slow step after it (the site contract times a missing control from here).
 */
export const CHAT_PAGE_READY = 'the chat page is ready (its composer found)';
/** How long after send the page may take to make its chat call, unless the site says. */
const CALL_WAIT_MS = 20_000;
/** How often the page is looked at for a wall while the answer comes. */
const WALL_POLL_MS = 400;
/** How much of the page's DOM an unrecognised page leaves in the evidence. */
const DOM_EVIDENCE_CHARS = 200_000;
/** How long a needs-human signal waits for the page to show its wall. */
const SETTLE_WALL_MS = 2_000;
const defaultStall = (timeoutMs: number) => Math.min(30_000, Math.max(1_000, timeoutMs / 4));

/** The page's DOM and a screenshot, into the evidence: the material to teach the driver. */
async function recordPage(page: Page, ctx: WebContext, why: string): Promise<void> {
  const dom = await page.content().catch(() => '');
  ctx.evidence.note(`${why}; the page's DOM: ${dom.slice(0, DOM_EVIDENCE_CHARS)}`);
  const shot = await page
    .screenshot({ type: 'jpeg', quality: 50, timeout: 3_000 })
    .catch(() => undefined);
  if (shot)
    ctx.evidence.note(`${why}; the page's screenshot (jpeg, base64): ${shot.toString('base64')}`);
}

/** What the opened page turned out to be: the chat page, or neither it nor a wall. */
type Look =
  | { view: PageView }
  | {
      /** What it shows instead, for the evidence. */
      neither: string;
      /** Its main document's HTTP status (0: not told). */
      status: number;
      /** A link to the chat it offers (a landing page). */
      link?: string;
    };

/**
 * Watches the opened page until it shows the chat page or a wall (thrown); a
 * page that is neither says so at once when its HTTP status is an error, after
 * LINK_SETTLE_MS when it has loaded and offers a link to the chat, else after
 * UI_WAIT_MS.
 */
async function look(
  spec: Site,
  page: Page,
  signal: AbortSignal,
  o: { links: boolean },
): Promise<Look> {
  const until = Date.now() + UI_WAIT_MS;
  let loadedAt: number | undefined;
  let last: PageView | undefined;
  for (;;) {
    const v = await viewPage(page, spec.walls);
    const wall = v && wallOf(spec.site, v);
    if (wall) throw wall;
    if (v && v.composer >= 0) return { view: v };
    if (v && v.status >= 400) return { neither: `HTTP ${v.status}`, status: v.status };
    last = v ?? last;
    loadedAt = v?.loaded ? (loadedAt ?? Date.now()) : undefined;
    if (o.links && v?.chatLink && loadedAt !== undefined && Date.now() - loadedAt >= LINK_SETTLE_MS)
      return { neither: 'a page with a link to the chat', status: v.status, link: v.chatLink };
    if (Date.now() > until)
      return { neither: 'no composer and no wall', status: last?.status ?? 0 };
    // Short: on a kept page the composer is usually there a moment after the load.
    await pause(100, signal);
  }
}

const isRoot = (url: string, root: string) => {
  const u = URL.canParse(url) ? new URL(url) : undefined;
  return u !== undefined && u.origin === new URL(root).origin && u.pathname === '/';
};

/**
 * Waits for the chat page; a wall first throws its signal. The start page
 * moves (a site serves its chat at a new path, its old one a 404 or a
 * redirect): a page that is neither is followed by its link to the chat once
 * and else left for the origin root once; neither anywhere is drift, naming
 * every address it tried.
 */
async function untilChat(spec: Site, page: Page, ctx: WebContext, signal: AbortSignal) {
  const root = new URL('/', ctx.settings.webUrl).href;
  const tried: string[] = [];
  let followed = false;
  let rooted = false;
  for (;;) {
    const r = await look(spec, page, signal, { links: !followed });
    if ('view' in r) return r.view;
    const at = page.url();
    tried.push(`${at} (${r.neither})`);
    let next: string | undefined;
    if (r.link && !followed) {
      followed = true;
      next = r.link;
      ctx.evidence.note(`${at} is not the chat page (${r.neither}): following its link ${next}`);
    } else if (!rooted && !isRoot(at, root)) {
      rooted = true;
      next = root;
      ctx.evidence.note(
        `${at} is neither a chat page nor a wall (${r.neither}): trying the origin root ${root}`,
      );
    }
    if (next === undefined) {
      const err = driverDrift(
        `page_unrecognised: ${spec.site} (neither a chat page nor a wall at ${tried.join(', nor at ')})`,
      );
      await recordPage(page, ctx, err.message);
      throw err;
    }
    await page.goto(next, { timeout: NAVIGATION_TIMEOUT_MS });
  }
}

/** Rejects with the wall's signal as soon as the page shows one; ends with `signal`. */
async function watchWalls(spec: Site, page: Page, signal: AbortSignal): Promise<never> {
  for (;;) {
    await pause(WALL_POLL_MS, signal);
    const v = await viewPage(page, spec.walls);
    const wall = v && wallOf(spec.site, v);
    if (wall) throw wall;
  }
}

/** `work`, unless the page shows a wall first. */
async function unlessWall<T>(spec: Site, page: Page, work: Promise<T>, signal: AbortSignal) {
  const stop = new AbortController();
  const walls = watchWalls(spec, page, AbortSignal.any([signal, stop.signal]));
  walls.catch(() => undefined);
  try {
    return await Promise.race([work, walls]);
  } finally {
    stop.abort();
  }
}

async function typePrompt(page: Page, v: PageView, prompt: string) {
  const box = page.locator(COMPOSERS).nth(v.composer);
  const tag = await box.evaluate((el) => el.tagName, undefined, { timeout: CONTROL_MS });
  if (tag === 'TEXTAREA') await box.fill(prompt, { timeout: CLICK_MS });
  else {
    // Editors such as Lexical take typed input, not a value set from outside.
    await box.click({ timeout: CLICK_MS });
    await page.keyboard.insertText(prompt);
  }
  return box;
}

async function send(spec: Site, page: Page, box: ReturnType<Page['locator']>) {
  const s = spec.controls.send;
  if (s) {
    let at = page.getByRole('button', { name: anyOf(s.names) });
    for (const f of s.fallbacks ?? []) at = at.or(page.locator(f));
    const button = at.filter({ visible: true }).last();
    if ((await button.count()) > 0 && (await button.getAttribute('aria-disabled')) !== 'true') {
      await button.click({ timeout: CLICK_MS });
      return;
    }
  }
  await box.press('Enter', { timeout: CLICK_MS });
}

function defaultFailure(site: string, status: number, body: string): PlatformError {
  const said = body.trim().slice(0, 200);
  if (status === 401 || status === 403)
    return needsHuman(
      site,
      `login wall: HTTP ${status} on the chat call${said ? ` (${said})` : ''}`,
    );
  if (status === 429) return rateLimited(site, said || 'HTTP 429');
  return new PlatformError(
    `${site}: HTTP ${status} on the chat call ${said}`.trim(),
    'failed',
    true,
  );
}

/**
 * The failure of a chat call that did not stream, as the site names it; a 401
 * the site reads as a login wall is an expired session instead: the page had
 * shown the logged-in chat (untilChat found no wall) and the site then refused
 * the session. Both need a person, who is told different things.
 */
function chatCallFailed(spec: Site, status: number, body: string): PlatformError {
  const err = (spec.call.failure ?? ((s, b) => defaultFailure(spec.site, s, b)))(status, body);
  const account = err.account;
  if (status !== 401 || account?.state !== 'needs_human' || account.kind !== 'login_wall')
    return err;
  // The site's own words for the call, without the wall's name and the site's.
  const named = account.reason.replace(/^login wall: /, '');
  const suffix = ` (${spec.site})`;
  const detail = named.endsWith(suffix) ? named.slice(0, -suffix.length) : named;
  return sessionExpired(spec.site, detail);
}

/** Sends the prompt and resolves with the captured chat call, unless a wall comes first. */
async function sendPrompt(
  spec: Site,
  page: Page,
  v: PageView,
  job: Job,
  ctx: WebContext,
): Promise<CapturedStream> {
  const box = await typePrompt(page, v, job.prompt);
  const waitMs = spec.call.waitMs ?? CALL_WAIT_MS;
  const within = AbortSignal.any([job.signal, AbortSignal.timeout(waitMs)]);
  const call = ctx.capture.next(spec.call.url, within);
  call.catch(() => undefined);
  await send(spec, page, box);
  try {
    return await unlessWall(spec, page, call, within);
  } catch (err) {
    if (job.signal.aborted) throw timeoutError('no chat call before the deadline');
    if (err instanceof PlatformError) throw err;
    const drift = driverDrift(`chat_call_missing: ${spec.site} (none within ${waitMs} ms of send)`);
    await recordPage(page, ctx, drift.message);
    throw drift;
  }
}

const isAnswer = (r: RawAnswer | Answer): r is Answer => 'answerContent' in r;

/** How much of each witness's text the evidence's note keeps. */
const WITNESS_NOTE_CHARS = 4_000;
/** The evidence note that opens a disagreement (driver-check and the tests look for it). */
export const WITNESSES_DIFFER = 'stream and page differ:';

/**
 * Step 6: the stream's answer against the rendered page's. Returns the answer
 * to keep and where it came from; throws `format_drift` when the stream is
 * not trusted and the page's reader cannot give the whole answer.
 */
async function witnessed(
  spec: Site,
  page: Page,
  answer: Answer,
  unplaced: readonly string[],
  ctx: WebContext,
  signal: AbortSignal,
): Promise<{ answer: Answer; answerSource: 'stream' | 'dom' }> {
  const { evidence } = ctx;
  const seen = await witnessPage(page, {
    selector: spec.dom.answer,
    stop: spec.dom.stop,
    stream: answer.answerContent,
    signal,
  });
  const notApplied = unplaced.length > 0 ? unplaced.join('; ') : 'none reported';
  evidence.note(`witnesses compared in ${seen.ms.toFixed(1)} ms (${seen.reads} page reads)`);
  if (!seen.verdict) {
    if (unplaced.length === 0) {
      evidence.note("the page's answer was not found: the stream is the only witness");
      return { answer, answerSource: 'stream' };
    }
    throw formatDrift(
      spec.site,
      `(frames with text not applied: ${notApplied}; the page's answer was not found to check them)`,
    );
  }
  // Agreeing on nothing while text went unapplied is no agreement: the answer was lost.
  const lost = unplaced.length > 0 && answer.answerContent.trim() === '';
  if (seen.verdict.agree && !lost) {
    if (unplaced.length > 0)
      evidence.note(`frames with text not applied (${notApplied}), but the page agrees`);
    return { answer, answerSource: 'stream' };
  }
  const difference = seen.verdict.agree
    ? 'neither shows an answer, and the stream carried text it could not place'
    : seen.verdict.difference;
  evidence.note(
    `${WITNESSES_DIFFER} ${difference}; frames not applied: ${notApplied}; ` +
      `the stream's text: ${answer.answerContent.slice(0, WITNESS_NOTE_CHARS)}; ` +
      `the page's text: ${(seen.text ?? '').slice(0, WITNESS_NOTE_CHARS)}`,
  );
  const read = spec.dom.whole && spec.dom.read ? await spec.dom.read(page) : undefined;
  const fromPage = read && (isAnswer(read) ? read : buildAnswer(read));
  // The page's reader stands in only when it reads the whole answer now: a site change can
  // leave part of it unread too, and a reading that lacks what the stream held is no witness.
  const lacks = fromPage
    ? pageReadingLacks({ fromPage, stream: answer, rendered: seen.text ?? '' })
    : ['no page reader gives the whole answer'];
  if (fromPage && lacks.length === 0) {
    evidence.note("the answer is the page's (its reader gives the whole answer)");
    return { answer: fromPage, answerSource: 'dom' };
  }
  throw formatDrift(
    spec.site,
    `(the stream and the page differ: ${difference}; frames not applied: ${notApplied}; ` +
      `the page's reading lacks ${lacks.slice(0, 5).join(', ')})`,
  );
}

/** The page's own answer, once its text has settled (the stream ended without its marker). */
async function fromPage(spec: Site, page: Page, signal: AbortSignal): Promise<RawAnswer | Answer> {
  const shown = await waitForStableText(page, {
    selector: spec.dom.answer,
    stopSelector: spec.dom.stop,
    signal,
  });
  const read = spec.dom.read ? await spec.dom.read(page) : undefined;
  if (read) return read;
  const raw = emptyRaw();
  raw.content = shown.trim();
  return raw;
}

/**
 * A site signal that needs a person (a login wall on the chat call, a captcha
 * in the stream) usually also shows on the page a moment later: waits briefly
 * for it, so the needs-human screenshot shows what the person must do.
 */
async function settleWall(spec: Site, page: Page): Promise<void> {
  for (const until = Date.now() + SETTLE_WALL_MS; Date.now() < until;) {
    const v = await viewPage(page, spec.walls);
    if (v && wallOf(spec.site, v)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Steps 3 to 6: from the typed prompt to the answer. */
async function answer<R extends FrameReader>(
  spec: SiteSpec<R>,
  page: Page,
  v: PageView,
  job: Job,
  ctx: WebContext,
  set: ModeSet,
): Promise<WebAnswer> {
  const { signal } = job;
  const { evidence } = ctx;
  const stream = await sendPrompt(spec, page, v, job, ctx);
  const streams = spec.call.streams ?? ((s) => s.status >= 200 && s.status < 300);
  if (!streams(stream)) {
    const body = await readBody(stream.chunks, signal);
    if (body) evidence.frame(body);
    throw chatCallFailed(spec, stream.status, body);
  }

  const reader = spec.frames({ evidence, stream });
  const stallMs = (spec.stallMs ?? defaultStall)(ctx.settings.timeoutMs);
  const reading = readFrames(stream.chunks, reader, { stallMs, evidence, signal });
  await unlessWall(spec, page, reading, signal);
  if (spec.afterFrames)
    await spec
      .afterFrames({ page, reader, stream, evidence })
      .catch((err: unknown) => evidence.note(`after the frames: ${String(err)}`));
  let parsed = reader.read();
  let formatVersion = reader.formatVersion;
  let answerSource: 'stream' | 'dom' = 'stream';
  if (!reader.complete) {
    evidence.note('no end marker in the stream: the page decides completion');
    const shown = await unlessWall(spec, page, fromPage(spec, page, signal), signal);
    const content = isAnswer(parsed) ? parsed.answerContent : parsed.content;
    if (content.trim() === '') {
      parsed = shown;
      formatVersion = `${spec.site}-dom`;
      answerSource = 'dom';
    }
  }
  if (!isAnswer(parsed) && parsed.refusal.trim() !== '') throw refused(spec.site, parsed.refusal);
  let answer = isAnswer(parsed) ? parsed : buildAnswer(parsed);
  if (reader.complete) {
    const unplaced = reader.report?.().unplaced ?? [];
    ({ answer, answerSource } = await unlessWall(
      spec,
      page,
      witnessed(spec, page, answer, unplaced, ctx, signal),
      signal,
    ));
  }
  if (answer.answerContent.trim() === '')
    throw new PlatformError(`${spec.site} returned no answer (empty content)`, 'failed', true);
  const mode = effectiveModeOf(
    job.mode,
    reader.complete ? reader.report?.() : undefined,
    () => spec.effectiveMode(stream.requestBody, reader, answer),
    evidence,
  );
  confirmMode(spec, set, stream.requestBody, mode);
  if (answer.referenceList.length > 0 && spec.openSources && !(await spec.openSources(page)))
    evidence.note('the sources panel was not found');
  const modelReported = answer.modelReported ?? (await pageModel(spec, page, ctx));
  return {
    ...answer,
    ...(modelReported !== undefined && { modelReported }),
    effectiveMode: mode,
    formatVersion: formatVersion ?? `${spec.site}-dom`,
    answerSource,
  };
}

/** Throws `mode_not_applied` when the call or the stream disagrees with a control the kit set. */
function confirmMode<R extends FrameReader>(
  spec: SiteSpec<R>,
  set: ModeSet,
  requestBody: string | undefined,
  ran: Mode,
): void {
  let asked: Mode | undefined;
  try {
    asked = spec.asked?.(requestBody);
  } catch {
    asked = undefined;
  }
  const lost = notApplied(set, asked, ran);
  if (lost === 'thinking') throw modeNotApplied(spec.site, spec.controls.thinking!.label);
  if (lost === 'search') throw modeNotApplied(spec.site, spec.controls.search!.label);
}

/** The page's label for the model that answered; undefined when the page shows none. */
async function pageModel(spec: Site, page: Page, ctx: WebContext): Promise<string | undefined> {
  const picker = spec.controls.modelLabel;
  const label = picker && (await shownChoice(page, picker));
  if (label) ctx.evidence.note(`the page's model label: ${label}`);
  return label || undefined;
}

async function drive<R extends FrameReader>(
  spec: SiteSpec<R>,
  page: Page,
  job: Job,
  ctx: WebContext,
): Promise<WebAnswer> {
  const v = await untilChat(spec, page, ctx, job.signal);
  ctx.evidence.note(CHAT_PAGE_READY);
  const { thinking, search } = spec.controls;
  const modes = [
    [thinking, hasReasoning(job.mode)],
    [search, hasSearch(job.mode)],
  ] as const;
  for (const [control, on] of modes)
    if (!control && on)
      throw driverDrift(`control_missing: ${spec.site} (the site has no such mode)`);
  const wanted = [
    ...(spec.controls.before?.(job, ctx.settings) ?? []),
    ...modes.flatMap(([c, on]) => (c ? [[c, on] as const] : [])),
  ];
  const left = await setModeControls(page, wanted, { evidence: ctx.evidence });
  const set: ModeSet = {
    ...(thinking && left.has(thinking.label) && { thinking: left.get(thinking.label) }),
    ...(search && left.has(search.label) && { search: left.get(search.label) }),
  };
  try {
    return await answer(spec, page, v, job, ctx, set);
  } catch (err) {
    if (err instanceof PlatformError && err.account?.state === 'needs_human' && !job.signal.aborted)
      await settleWall(spec, page);
    throw err;
  }
}

/**
 * Whether the opened page shows a logged-in session (`account check`, and
 * `account login` while a person logs in: it never leaves a page that may be
 * the login in progress). A start page that moved (an HTTP error) is left for
 * the origin root once, as a sub task does.
 */
async function loginState(
  spec: Site,
  page: Page,
  ctx: Pick<WebContext, 'settings'>,
): Promise<LoginState> {
  const never = new AbortController().signal;
  const root = new URL('/', ctx.settings.webUrl).href;
  for (let rooted = false; ; rooted = true) {
    let r: Look;
    try {
      r = await look(spec, page, never, { links: false });
    } catch (wall) {
      return { loggedIn: false, reason: (wall as Error).message };
    }
    if ('view' in r) return { loggedIn: true };
    if (rooted || r.status < 400 || isRoot(page.url(), root))
      return { loggedIn: false, reason: `the chat page did not appear (${r.neither})` };
    await page.goto(root, { timeout: NAVIGATION_TIMEOUT_MS });
  }
}

/** The site's WebDriver, built from its spec. */
export function siteDriver<R extends FrameReader>(spec: SiteSpec<R>): WebDriver {
  const at = (path: string, webUrl: string) => new URL(path, webUrl).href;
  return {
    startUrl: (_job, ctx) => at(spec.urls.start, ctx.settings.webUrl),
    loginUrl: (ctx) => at(spec.urls.login, ctx.settings.webUrl),
    origins: (ctx) => {
      const own = new URL(ctx.settings.webUrl);
      return spec.real.host.test(own.hostname)
        ? [...new Set([own.origin, ...spec.real.origins])]
        : [own.origin];
    },
    chatCall: spec.call.url,
    answerSelector: spec.dom.answer,
    ask: guardedAsk((page, job, ctx) => drive(spec, page, job, ctx)),
    newChat: (page, ctx) =>
      startNewChat(page, {
        control: spec.controls.newChat,
        answer: spec.dom.answer,
        startUrl: at(spec.urls.start, ctx.settings.webUrl),
        evidence: ctx.evidence,
      }),
    loginState: (page, ctx) => loginState(spec, page, ctx),
  };
}
