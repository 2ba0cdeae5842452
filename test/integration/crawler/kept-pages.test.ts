/**
 * Account pages kept between sub tasks, in the crawler's real Chromium: a kept
 * page carries its account's identity and origin rules like any page, is
 * handed to the account's next sub task while it fits (a session the site
 * set meanwhile survives), and is replaced when the account's state, proxy or
 * origins changed, when its attempt failed, or when it closed; idle pages
 * close after their time and beyond the limit.
 */
import t from 'tap';
import { BrowserRunner } from '../../../crawler/browser.js';
import { KeptPages, pageFit, type PageFit } from '../../../crawler/web/kept-pages.js';
import type { BrowserIdentity } from '../../../crawler/web/identity.js';
import { cookies, sendHtml, startSite, storageStateFor } from '../../../replicas/common/site.js';
import { chromiumPath } from '../../../infra/processes.js';

const seen: { account: string; visit: string; acceptLanguage: string }[] = [];
let visits = 0;
const site = await startSite([
  {
    method: 'GET',
    path: '/',
    handle: (req, res) => {
      const c = cookies(req);
      // A session cookie of the site's own, set on the first visit of a context only.
      const visit = c.visit ?? `v${++visits}`;
      seen.push({
        account: c.sid ?? '',
        visit,
        acceptLanguage: req.headers['accept-language'] ?? '',
      });
      res.setHeader('set-cookie', `visit=${visit}; Path=/`);
      sendHtml(res, `<!doctype html><title>chat</title><body>${visit}</body>`);
    },
  },
]);
t.teardown(() => site.close());

const browser = new BrowserRunner({
  chromiumPath: chromiumPath(),
  concurrency: 2,
  maxWorkSeconds: 60,
});
t.teardown(() => browser.stop());

const origins = [site.url];
const identityOf = (sid: string): BrowserIdentity => ({
  storageState: storageStateFor(site.url, { cookies: { sid } }),
  locale: 'zh-CN',
  timezoneId: 'Asia/Shanghai',
});
const fitOf = (identity: BrowserIdentity, more: Partial<PageFit> = {}) =>
  pageFit({ proxyUrl: undefined, allowedOrigins: origins, ...identity, ...more });
const open = (identity: BrowserIdentity) => () =>
  browser.keepPage({ allowedOrigins: origins, identity });

async function visit(page: import('playwright').Page): Promise<string> {
  await page.goto(site.url);
  return (await page.textContent('body')) ?? '';
}

t.test('a kept page serves the next sub task while it fits', async (t) => {
  const pages = new KeptPages({ max: 4, idleMs: 60_000 });
  t.teardown(() => pages.closeAll());
  const a = identityOf('alice');
  const first = await pages.take('a', fitOf(a), open(a));
  t.equal(first.reused, false, 'the first sub task opens the page');
  const v1 = await visit(first.kept.page);
  t.match(seen.at(-1), { account: 'alice', acceptLanguage: 'zh-CN,zh;q=0.9' }, 'the identity');
  t.equal(
    await first.kept.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    'Asia/Shanghai',
  );
  await pages.giveBack('a', first.kept, fitOf(a), true);

  const second = await pages.take('a', fitOf(a), open(a));
  t.equal(second.reused, true, 'the next sub task gets the kept page');
  t.equal(second.kept.page, first.kept.page);
  t.equal(await visit(second.kept.page), v1, 'the session the site set survives');
  await pages.giveBack('a', second.kept, fitOf(a), true);

  const blocked = await second.kept.page
    .goto('http://127.0.0.9:1/')
    .then(() => 'loaded')
    .catch((err: Error) => err.message);
  t.match(blocked, /ERR_BLOCKED_BY_CLIENT/, 'the origin rule still holds on a kept page');
});

t.test('a kept page is replaced when it no longer fits or its attempt failed', async (t) => {
  const pages = new KeptPages({ max: 4, idleMs: 60_000 });
  t.teardown(() => pages.closeAll());
  const b = identityOf('bob');
  const first = await pages.take('b', fitOf(b), open(b));
  const v1 = await visit(first.kept.page);
  await pages.giveBack('b', first.kept, fitOf(b), true);

  // The operator logged the account in again: another state.
  const relogged = identityOf('bob-2');
  const second = await pages.take('b', fitOf(relogged), open(relogged));
  t.equal(second.reused, false, 'a changed storage state opens a new page');
  t.ok(first.kept.page.isClosed(), 'and closes the old one');
  const v2 = await visit(second.kept.page);
  t.not(v2, v1, 'in a new context');
  t.equal(seen.at(-1)?.account, 'bob-2');
  await pages.giveBack('b', second.kept, fitOf(relogged), false);
  t.ok(second.kept.page.isClosed(), 'a failed attempt closes its page');
  t.equal(pages.size, 0);

  const third = await pages.take('b', fitOf(relogged), open(relogged));
  t.equal(third.reused, false);
  await pages.giveBack('b', third.kept, fitOf(relogged), true);
  const moved = await pages.take(
    'b',
    fitOf(relogged, { proxyUrl: 'http://127.0.0.2:1' }),
    open(relogged),
  );
  t.equal(moved.reused, false, 'another proxy port opens a new page');
  await moved.kept.close();
  await pages.giveBack('b', moved.kept, fitOf(relogged), true);
  t.equal(pages.size, 0, 'a closed page is not kept');
});

t.test('idle pages close after their time and beyond the limit', async (t) => {
  let now = 0;
  const pages = new KeptPages({ max: 2, idleMs: 1_000, now: () => now });
  t.teardown(() => pages.closeAll());
  const ids = ['c1', 'c2', 'c3'];
  const taken = [];
  for (const id of ids) {
    const identity = identityOf(id);
    const got = await pages.take(id, fitOf(identity), open(identity));
    taken.push(got.kept);
    now += 10;
    await pages.giveBack(id, got.kept, fitOf(identity), true);
  }
  t.equal(pages.size, 2, 'the limit holds');
  t.ok(taken[0]!.page.isClosed(), 'the least recently used went first');
  t.notOk(taken[2]!.page.isClosed());
  now += 1_000;
  await pages.sweep();
  t.equal(pages.size, 0, 'idle past their time: closed');
  t.ok(taken.every((k) => k.page.isClosed()));
});

t.test('a page in use is not shared', async (t) => {
  const pages = new KeptPages({ max: 4, idleMs: 60_000 });
  t.teardown(() => pages.closeAll());
  const d = identityOf('dora');
  const first = await pages.take('d', fitOf(d), open(d));
  await pages.giveBack('d', first.kept, fitOf(d), true);
  const running = await pages.take('d', fitOf(d), open(d));
  const beside = await pages.take('d', fitOf(d), open(d));
  t.equal(running.reused, true);
  t.equal(beside.reused, false, 'a second holder (after a lost release) gets its own page');
  t.not(beside.kept.page, running.kept.page);
  await pages.giveBack('d', beside.kept, fitOf(d), true);
  t.ok(beside.kept.page.isClosed(), 'and it is not kept while the first still runs');
  await pages.giveBack('d', running.kept, fitOf(d), true);
  t.equal(pages.size, 1);
});
