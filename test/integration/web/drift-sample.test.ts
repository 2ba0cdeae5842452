/**
 * The site contract under generated drift: every site's replica composes a
 * combination of drifts (replicas/common/drift-sample.ts) as a site's next
 * release would, and one kept page asks in every mode in turn, each next
 * chat through the site's new-chat control. For every ask the driver returns
 * the exact answer the replica holds, in the mode asked (from the stream or,
 * where the stream lost part of it, from the page with `answerSource: 'dom'`),
 * or fails within seconds with a named drift signal that the combination
 * explains. It never returns a partial answer called complete.
 *
 * CI runs one combination per site, drawn from a seed printed first: a
 * failure is replayed with `DRIFT_SEED=<seed>`, and a site's replica drawn
 * for it is served by `npm run replica -- <site> --drift-seed <seed>`. `npm run test:drift`
 * (DRIFT_ALL=1) runs the pairwise set, in which every two drifts that can go
 * together meet at least once.
 */
import t from 'tap';
import type { Browser } from 'playwright';
import { testBrowser } from '../../helpers/chromium.js';
import { webContext } from '../../helpers/web-context.js';
import {
  fieldsOf,
  onlySites,
  replicaContext,
  WEB_SITES,
  type WebSite,
} from '../../helpers/web-sites.js';
import { EvidenceLog } from '../../../crawler/web/evidence-log.js';
import {
  PlatformError,
  type PlatformSettings,
  type WebAnswer,
} from '../../../crawler/platforms/types.js';
import type { Mode } from '../../../services/shared/platforms.js';
import type { Drift } from '../../../replicas/common/drift.js';
import {
  drawSiteDrifts,
  pairwiseDrifts,
  STREAM_LOSS,
} from '../../../replicas/common/drift-sample.js';

const ALL = process.env.DRIFT_ALL === '1';
const SEED = Number(process.env.DRIFT_SEED ?? Math.floor(Math.random() * 2 ** 31));
t.setTimeout(ALL ? 3_600_000 : 240_000);
if (!ALL) t.comment(`drift seed ${SEED}: replay with DRIFT_SEED=${SEED}`);

/** Every mode in turn, so each control is set on and then off again on the kept page. */
const MODES_IN_TURN: readonly Mode[] = ['reasoning_search', 'standard', 'search', 'reasoning'];
/** How long one ask may take, a slow first byte and a DOM witness included. */
const ASK_WITHIN_MS = 25_000;

const browser: Browser = await testBrowser(t);

/** The named failures a combination may explain; none: every ask must answer. */
function mayFail(drifts: readonly Drift[]): string[] {
  return drifts.some((d) => STREAM_LOSS.includes(d)) ? ['format_drift'] : [];
}

/** How long one page's four asks may take in all; past it the page fails, naming its drifts. */
const PAGE_WITHIN_MS = 4 * ASK_WITHIN_MS + 30_000;

/**
 * One page, bounded: a page that does not finish (a step that waits on nothing) fails naming
 * its combination instead of holding the run; each page's end is printed as it comes, so a
 * long pairwise run shows its progress.
 */
async function boundedPage(site: WebSite, drifts: readonly Drift[], n: string) {
  const what = `${site.name} [${drifts.join(', ')}]`;
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), PAGE_WITHIN_MS);
  });
  const done = await Promise.race([onePage(site, drifts).then(() => 'done' as const), late]);
  clearTimeout(timer);
  t.ok(done === 'done', `${what}: the page's asks ended within ${PAGE_WITHIN_MS} ms`);
  process.stderr.write(`drift page ${n} ${what}: ${done} in ${Date.now() - started} ms\n`);
}

async function onePage(site: WebSite, drifts: readonly Drift[]) {
  const what = `${site.name} [${drifts.join(', ')}]`;
  const replica = await site.start(drifts);
  const settings: PlatformSettings = { apiBaseUrl: '', webUrl: replica.url, timeoutMs: 30_000 };
  const context = await replicaContext(browser, replica.storageState());
  const allowed = mayFail(drifts);
  try {
    const page = await context.newPage();
    let fresh = true;
    for (const mode of MODES_IN_TURN) {
      const prompt = `新能源汽车的电池技术 ${mode}`;
      const evidence = new EvidenceLog();
      const job = { prompt, mode, signal: AbortSignal.timeout(ASK_WITHIN_MS) };
      if (fresh) await page.goto(site.driver.startUrl(job, { settings }));
      else await site.driver.newChat!(page, { settings, evidence });
      const ctx = await webContext(page, settings, evidence);
      const started = Date.now();
      let answer: WebAnswer | undefined;
      let error: unknown;
      try {
        answer = await site.driver.ask(page, job, ctx);
      } catch (err) {
        error = err;
      } finally {
        await ctx.capture.close();
      }
      const ms = Date.now() - started;
      fresh = error !== undefined;
      const label = `${what}, ${mode}`;
      if (answer) {
        t.same(fieldsOf(answer), site.expected(prompt, mode, replica.url), `${label}: exact`);
        t.equal(answer.effectiveMode, mode, `${label}: ran in the mode asked`);
        continue;
      }
      const message = error instanceof Error ? error.message : String(error);
      t.ok(
        error instanceof PlatformError && allowed.some((name) => message.startsWith(name)),
        `${label}: ${message} (allowed: ${allowed.join(', ') || 'none'})`,
      );
      t.equal((error as PlatformError).account, undefined, `${label}: the account stays healthy`);
      t.ok(ms < ASK_WITHIN_MS, `${label}: failed in ${ms} ms`);
    }
  } finally {
    await context.close();
    await replica.close();
  }
}

t.test('generated drift: the exact answer in the mode asked, or a named failure', async () => {
  const combos = onlySites(WEB_SITES).flatMap((site) =>
    (ALL ? pairwiseDrifts(site.callFrom) : [drawSiteDrifts(SEED, site.name, site.callFrom)]).map(
      (drifts) => [site, drifts] as const,
    ),
  );
  const pages = combos.map(
    ([site, drifts], i) =>
      () =>
        boundedPage(site, drifts, `${i + 1}/${combos.length}`),
  );
  // Two pages at a time: the suite's other files share CI's two cores.
  let next = 0;
  const worker = async () => {
    while (next < pages.length) await pages[next++]!();
  };
  await Promise.all([worker(), worker()]);
});
