/**
 * The site contract, the same for every consumer site the kit drives: against
 * each replica drawn as the site might be next month (replicas/common/drift.ts:
 * renamed classes, no test ids, a switch drawn as a pressed button and back,
 * a slow first byte, no new-chat control, the chat call moved into a worker
 * or out of one; the mode controls drawn without a name beside their label,
 * as checkboxes, as menu items behind a button, deep thinking as a picker
 * that shows a model name, the last mode remembered across loads) and with
 * each of its stream variants
 * (replicas/<site>/frames.ts STREAM_VARIANTS: events before and after the
 * end, a renamed field, a newer format), the driver returns the exact answer
 * the replica holds (replicas/<site>/expected.ts) with the mode that ran and
 * the model label the page shows (null where it shows none), or fails within
 * seconds with a named drift signal, never a hang and never a verdict on the
 * account. A mode needs only its own controls: with the page's mode controls
 * gone, standard mode still answers and deep thinking fails within 5 s of the
 * chat page being ready, with `control_missing: <site> deep-thinking`.
 * Each answer's chat call came from where the drifted page makes it: the
 * page itself or a worker. The start page moves (its path redirects, or is
 * a 404 while the root serves the chat or a landing page's link leads
 * there): the driver still reaches the chat and answers exactly, the
 * evidence naming the page it left and the one it tried; a start page gone
 * everywhere is `page_unrecognised` within seconds, naming both addresses.
 * On each mode drift's page the mode is set both
 * ways: reasoning_search, then standard on the same kept page (with
 * `persisted_mode`, on a fresh load that starts with both controls on).
 *
 * As the executor keeps an account's page: one page per replica, each next
 * chat started through the site's new-chat control (driver.newChat; a reload
 * where the drift took the control away, or after a failure). The stream
 * variants ride on the drifted pages, so each case tests a DOM drift and a
 * stream drift at once. One browser for the file; three pages at a time.
 * In CI each drift past the variants' pages runs on two sites a seed deals
 * (every site with DRIFT_ALL=1: `npm run test:drift`).
 */
import t from 'tap';
import type { Browser, Page } from 'playwright';
import { testBrowser } from '../../helpers/chromium.js';
import { webContext } from '../../helpers/web-context.js';
import {
  fieldsOf,
  replicaContext,
  SITES_UNDER_TEST,
  type RunningReplica as Running,
  type WebSite,
} from '../../helpers/web-sites.js';
import { EvidenceLog } from '../../../crawler/web/evidence-log.js';
import { toFailure } from '../../../crawler/executor.js';
import { CHAT_PAGE_READY } from '../../../crawler/web/site-driver.js';
import {
  PlatformError,
  type PlatformSettings,
  type WebAnswer,
  type WebContext,
} from '../../../crawler/platforms/types.js';
import { MODES, type Mode } from '../../../services/shared/platforms.js';
import {
  callFromUnder,
  driftsOf,
  STREAM_DRIFTS,
  type CallFrom,
  type Drift,
} from '../../../replicas/common/drift.js';
import { WITNESSES_DIFFER } from '../../../crawler/web/site-driver.js';
import type { StreamVariant } from '../../../replicas/common/stream-variants.js';
import { startSite } from '../../../replicas/common/site.js';
import { shareDrifts } from '../../../replicas/common/drift-sample.js';
import { doubaoWeb } from '../../../crawler/platforms/doubao/web/index.js';

/**
 * Every site through every single drift with DRIFT_ALL=1 (`npm run test:drift`). Otherwise (CI)
 * every site's unchanged page and the pages its stream variants ride on, and each other drift
 * on SHARED_ON sites dealt by a seed printed first (replayed with `DRIFT_SEED=<seed>`): over
 * runs every site meets every drift, and the suite stays within its time as sites are added.
 */
const ALL = process.env.DRIFT_ALL === '1';
// Room for a busy 2-core machine: about 150 s alone in CI; every drift of every site, far longer.
t.setTimeout(ALL ? 3_600_000 : 300_000);
const SEED = Number(process.env.DRIFT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SHARED_ON = 2;
if (!ALL) t.comment(`drift seed ${SEED}: replay with DRIFT_SEED=${SEED}`);

const browser: Browser = await testBrowser(t);

interface Case {
  prompt: string;
  mode: Mode;
  /** Undefined: the exact answer; else the start of the named drift signal it fails with. */
  fails?: string;
  /** The exact answer read from the page, the stream and page having disagreed. */
  fromPage?: true;
  /** How soon the drift signal must come, ms. */
  within?: number;
  /** How soon it must come once the chat page is ready (the kit's CHAT_PAGE_READY note), ms. */
  withinOfReady?: number;
  /** What the case changes besides the page's drift, for its messages. */
  what: string;
  /** Done to the page before the driver asks (a control taken away). */
  before?: (page: Page) => Promise<void>;
  /** The page as the site's next build serves it: loaded again, every control at its default. */
  reload?: true;
  /** A note the answer's evidence must hold (the way the driver found a moved chat page). */
  noted?: RegExp;
}

interface Outcome {
  answer?: WebAnswer;
  error?: PlatformError;
  ms: number;
  /** From the chat page's readiness to the failure's own note, on the evidence's clock. */
  msOfReady?: number;
  notes: string[];
}

/**
 * The cases of one page, in order, as one account's kept page serves its sub
 * tasks: the first opens the start URL, each next one starts a new chat
 * through the page (a page whose case failed is loaded again, as the
 * executor closes it). Checks each answer or drift signal as it comes.
 */
interface OnePage {
  site: WebSite;
  /** The page's drift: a common one (drift.ts) or the site's own widgets. */
  drift: string;
  /** Where the drifted page makes its chat call. */
  callFrom: CallFrom;
  start(): Promise<Running>;
  cases: Case[];
}

async function onOnePage({ site, drift, callFrom, start, cases }: OnePage) {
  const replica = await start();
  t.teardown(() => replica.close());
  const settings: PlatformSettings = { apiBaseUrl: '', webUrl: replica.url, timeoutMs: 30_000 };
  const context = await replicaContext(browser, replica.storageState());
  try {
    const page = await context.newPage();
    const fromPage = await pageCalls(page, site.driver.chatCall!);
    let fresh = true;
    for (const c of cases) {
      const label = `${site.name}, ${drift}, ${c.mode}, ${c.what}`;
      const evidence = new EvidenceLog();
      const job = { prompt: c.prompt, mode: c.mode, signal: AbortSignal.timeout(30_000) };
      if (fresh || c.reload) await page.goto(site.driver.startUrl(job, { settings }));
      else
        t.equal(
          await site.driver.newChat!(page, { settings, evidence }),
          drift === 'no_new_chat' ? 'reload' : 'control',
          `${label}: the new chat through the page's own control, a reload without one`,
        );
      if (c.before) await c.before(page);
      // As the executor does: the capture starts on the page the chat runs in.
      const ctx = await webContext(page, settings, evidence);
      const before = fromPage();
      const r = await timed(() => site.driver.ask(page, job, ctx), ctx);
      await ctx.capture.close();
      fresh = r.error !== undefined;
      check(site, { url: replica.url, drift }, c, label, r);
      if (r.answer)
        t.equal(fromPage() > before ? 'page' : 'worker', callFrom, `${label}: the call's origin`);
    }
  } finally {
    await context.close();
  }
}

/**
 * How many chat calls the page has made itself: its own CDP session sees no
 * worker's network. The request is announced before its response, so a call
 * the driver answered from is counted by the time the answer is in.
 */
async function pageCalls(page: Page, call: RegExp): Promise<() => number> {
  const session = await page.context().newCDPSession(page);
  let count = 0;
  session.on('Network.requestWillBeSent', (p) => {
    if (call.test(p.request.url)) count++;
  });
  await session.send('Network.enable');
  return () => count;
}

async function timed(ask: () => Promise<WebAnswer>, ctx: WebContext): Promise<Outcome> {
  const started = Date.now();
  const notes = () =>
    ctx.evidence.list().flatMap((e) => (e.kind === 'note' ? [e.text.slice(0, 200)] : []));
  try {
    const answer = await ask();
    return { answer, ms: Date.now() - started, notes: notes() };
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    const noteAt = (matches: (text: string) => boolean) =>
      ctx.evidence.list().findLast((e) => e.kind === 'note' && matches(e.text))?.t;
    const ready = noteAt((text) => text === CHAT_PAGE_READY);
    const failed = noteAt((text) => text.startsWith(err.message));
    return {
      error: err,
      ms: Date.now() - started,
      ...(ready !== undefined && failed !== undefined && { msOfReady: failed - ready }),
      notes: notes(),
    };
  }
}

function check(
  site: WebSite,
  { url, drift }: { url: string; drift: string },
  c: Case,
  label: string,
  r: Outcome,
) {
  if (c.fails !== undefined) {
    const { message, ...failure } = toFailure(r.error);
    t.ok(message.startsWith(c.fails), `${label}: ${message} names the drift`);
    t.same(failure, { status: 'failed', retryable: false }, `${label}: not retried elsewhere`);
    t.equal(r.error?.account, undefined, `${label}: the account stays healthy`);
    t.ok(r.ms < c.within!, `${label}: failed in ${r.ms} ms`);
    if (c.withinOfReady !== undefined)
      t.ok(
        r.msOfReady !== undefined && r.msOfReady < c.withinOfReady,
        `${label}: failed ${r.msOfReady} ms after the chat page was ready`,
      );
    return;
  }
  t.equal(r.error?.message, undefined, `${label}: no failure`);
  if (!r.answer) {
    t.comment(r.notes.join('\n'));
    return;
  }
  t.same(fieldsOf(r.answer), site.expected(c.prompt, c.mode, url), `${label}: exact`);
  if (c.noted)
    t.ok(
      r.notes.some((n) => c.noted!.test(n)),
      `${label}: the evidence says how the chat page was found`,
    );
  t.equal(
    r.answer.answerSource,
    c.fromPage ? 'dom' : 'stream',
    `${label}: the witness it came from`,
  );
  if (c.fromPage)
    t.ok(
      r.notes.some((n) => n.startsWith(WITNESSES_DIFFER)),
      `${label}: the disagreement is in the evidence`,
    );
  t.equal(
    r.answer.effectiveMode,
    site.ran?.(c.prompt, c.mode, url) ?? c.mode,
    `${label}: the mode that ran`,
  );
  t.equal(r.answer.modelReported ?? null, site.model(drift, c.mode), `${label}: the model label`);
}

/**
 * Pages driven at once. Each is a browser context with a page of its own; on
 * CI's two cores, with the suite's other files running beside this one, more
 * at once only makes every page slower than the deadlines being tested.
 */
const AT_ONCE = 3;
/** How soon a stream's format drift must fail the sub task. */
const DRIFT_WITHIN_MS = 10_000;

/** Runs the jobs, at most AT_ONCE at a time, in the order given. */
async function pool(jobs: readonly (() => Promise<void>)[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
}

const plain = (mode: Mode): Case => ({
  prompt: `新能源汽车的电池技术 ${mode}`,
  mode,
  what: 'plain stream',
});

/**
 * A site's pages and their cases: every mode on the unchanged page, then the
 * page without its deep-thinking control; on each drifted page the mode that
 * sets both controls, with a stream variant each (a drift variant where a
 * plain case has shown the page answers), so every variant runs once.
 */
function pagesOf(site: WebSite): OnePage[] {
  const answers = site.variants.filter((v) => v.expect === 'answer');
  const drifts = site.variants.filter((v) => v.expect !== 'answer');
  // The stream not trusted: the page's whole answer, or a named format drift.
  const witness = site.whole
    ? { fromPage: true as const }
    : { fails: `format_drift: ${site.name}`, within: DRIFT_WITHIN_MS };
  const variant = (v: StreamVariant): Case => ({
    prompt: `新能源汽车的电池技术 #replica:${v.name}`,
    mode: 'reasoning_search',
    what: `${v.name} (${v.what})`,
    ...(v.expect === 'drift'
      ? { fails: `unrecognised ${site.name} stream format`, within: DRIFT_WITHIN_MS }
      : v.expect === 'witness'
        ? witness
        : {}),
  });
  const withVariants: Drift[] = ['renamed_classes', 'no_testids', 'other_widget'];
  const from = site.callFrom;
  const pages = new Map<Drift, Case[]>(driftsOf(from).map((d) => [d, []]));
  pages.get('none')!.push(...MODES.map(plain), ...withoutThinking(site));
  answers.forEach((v, i) => pages.get(withVariants[i % withVariants.length]!)!.push(variant(v)));
  for (const d of ['slow_first_byte', 'no_new_chat'] as const)
    pages.get(d)!.push(plain('reasoning_search'));
  // The call moved into a worker, or out of the site's own worker into the page;
  // there standard mode follows on the kept page: the page's second call, every control off.
  if (from === 'page') pages.get('call_in_worker')!.push(plain('reasoning_search'));
  else pages.get('call_in_page')!.push(plain('reasoning_search'), plain('standard'));
  pages.get('no_new_chat')!.push(...drifts.map(variant));
  // The start page moved: a redirect the browser follows; a 404 left for the root (or a
  // root landing page's link followed), the evidence naming the page left and the one tried.
  pages.get('chat_path_redirect')!.push(plain('search'));
  pages.get('chat_path_moved')!.push({
    ...plain('search'),
    noted:
      /^http:\/\/\S+ is (not the chat page|neither a chat page nor a wall) \(.+\): (following its link|trying the origin root) http:\/\/\S+$/,
  });
  // The mode controls drawn otherwise: set on, then off again on the kept page.
  for (const d of [
    'nameless_controls',
    'checkbox_controls',
    'menu_controls',
    'model_name_picker',
  ] as const)
    pages.get(d)!.push(plain('reasoning_search'), plain('standard'));
  pages.get('persisted_mode')!.push(plain('reasoning_search'), {
    ...plain('standard'),
    what: 'a fresh load that remembers reasoning_search',
    reload: true,
  });
  // The stream drifts the replica generates: one case each, on its own page.
  for (const [d, yields] of Object.entries(STREAM_DRIFTS) as [Drift, 'answer' | 'witness'][])
    pages.get(d)!.push({
      ...plain('reasoning_search'),
      what: `stream drift ${d}`,
      ...(yields === 'witness' ? witness : {}),
    });
  // Where the variants ride, on every site; the other drifts where the seed dealt them.
  const mine = SHARED.get(site.name)!;
  for (const d of pages.keys())
    if (!ALL && !EVERY_SITE.includes(d) && !mine.has(d)) pages.delete(d);
  return [
    ...[...pages].map(([drift, cases]) => ({
      site,
      drift,
      callFrom: callFromUnder(drift, from),
      start: () => site.start(drift),
      cases,
    })),
    ...Object.entries(site.widgets ?? {}).map(([drift, start]) => ({
      site,
      drift,
      callFrom: from,
      start,
      cases: [plain('reasoning_search')],
    })),
  ].filter((p) => p.cases.length > 0);
}

/** The pages every site runs: the unchanged one, and those its stream variants ride on. */
const EVERY_SITE: readonly Drift[] = [
  'none',
  'renamed_classes',
  'no_testids',
  'other_widget',
  'no_new_chat',
];
/** Each other drift, and the sites the seed dealt it to. */
const SHARED = shareDrifts(
  SEED,
  SITES_UNDER_TEST,
  [...new Set(SITES_UNDER_TEST.flatMap((s) => driftsOf(s.callFrom)))].filter(
    (d) => !EVERY_SITE.includes(d),
  ),
  SHARED_ON,
);

/** Standard mode answers without the deep-thinking control; deep thinking is named drift in < 5 s. */
function withoutThinking(site: WebSite): Case[] {
  const before = async (page: Page) => {
    await page.getByRole('textbox').first().waitFor();
    // Gone for good: a page that draws its controls again (Yuanbao's) does not bring it back.
    await page.evaluate(`(() => {
        const names = ${JSON.stringify(site.thinkingNames)};
        const drop = () => {
          for (const el of document.querySelectorAll('button, [role="button"], [role="switch"]'))
            if (names.some((n) => (el.textContent || '').includes(n))) el.remove();
        };
        drop();
        new MutationObserver(drop).observe(document.body, { childList: true, subtree: true });
      })()`);
  };
  const what = 'no deep-thinking control';
  return [
    { prompt: '番茄炒蛋怎么做', mode: 'standard', what, before, reload: true },
    {
      prompt: '番茄炒蛋怎么做',
      mode: 'reasoning',
      what,
      before,
      fails: `control_missing: ${site.name} deep-thinking`,
      // Under 5 s once the page is there; a page that loads slowly on a busy machine may add to it.
      withinOfReady: 5_000,
      within: DRIFT_WITHIN_MS,
    },
  ];
}

t.test('a start page gone everywhere: page_unrecognised in seconds, both addresses', async (t) => {
  const gone = await startSite([]);
  t.teardown(() => gone.close());
  const settings: PlatformSettings = { apiBaseUrl: '', webUrl: gone.url, timeoutMs: 30_000 };
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  const job = { prompt: 'x', mode: 'standard' as const, signal: AbortSignal.timeout(30_000) };
  // Doubao's entry is /chat/: a 404 there, and at the root it then tries.
  await page.goto(doubaoWeb.startUrl(job, { settings }));
  const ctx = await webContext(page, settings, new EvidenceLog());
  const r = await timed(() => doubaoWeb.ask(page, job, ctx), ctx);
  await ctx.capture.close();
  t.equal(
    r.error?.message,
    `page_unrecognised: doubao (neither a chat page nor a wall at ${gone.url}/chat/ (HTTP 404), nor at ${gone.url}/ (HTTP 404))`,
  );
  t.match(toFailure(r.error), { status: 'failed', retryable: false });
  t.ok(r.ms < 5_000, `named in ${r.ms} ms, not after the UI wait`);
});

t.test(
  'every site, every drift, every stream variant: the exact answer or a named drift signal',
  async () => {
    // The longest pages first, so the last to start is a short one.
    const pages = SITES_UNDER_TEST.flatMap(pagesOf);
    pages.sort((a, b) => b.cases.length - a.cases.length);
    await pool(pages.map((p) => () => onOnePage(p)));
  },
);
