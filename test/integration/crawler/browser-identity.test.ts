/**
 * Accounts' identities in the crawler's one Chromium: two accounts' pages open
 * at the same time each see only their own cookies and local storage, run in
 * their own locale and time zone (page and worker alike) and send the matching
 * Accept-Language; what the site writes later survives and is read back with
 * the page's storage state; and nothing of an account reaches a later page.
 */
import t from 'tap';
import type { Page } from 'playwright';
import { BrowserRunner } from '../../../crawler/browser.js';
import type { BrowserIdentity } from '../../../crawler/web/identity.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import { cookies, sendHtml, startSite } from '../../../replicas/common/site.js';

const seen: { who: string; path: string; acceptLanguage: string }[] = [];
const site = await startSite([
  {
    method: 'GET',
    path: '/',
    handle: (req, res) => {
      seen.push({
        who: cookies(req).sid ?? '',
        path: '/',
        acceptLanguage: req.headers['accept-language'] ?? '',
      });
      sendHtml(res, '<!doctype html><title>site</title><body>chat</body>');
    },
  },
  {
    method: 'GET',
    path: '/whoami',
    handle: (req, res) => {
      const who = cookies(req).sid ?? '';
      seen.push({ who, path: '/whoami', acceptLanguage: req.headers['accept-language'] ?? '' });
      res.writeHead(200, { 'content-type': 'text/plain' }).end(who);
    },
  },
  {
    method: 'GET',
    path: '/worker.js',
    handle: (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(
        `postMessage({ language: navigator.language,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });`,
      );
    },
  },
  {
    method: 'GET',
    path: '/challenge',
    handle: (_req, res) => sendHtml(res, '<body id="challenge">verify you are human</body>', 403),
  },
]);
t.teardown(() => site.close());
const origin = new URL(site.url).origin;
const host = new URL(site.url).hostname;

function stateOf(name: string): StorageState {
  const cookie = (cookieName: string, httpOnly: boolean) => ({
    name: cookieName,
    value: name,
    domain: host,
    path: '/',
    expires: -1,
    httpOnly,
    secure: false,
    sameSite: 'Lax' as const,
  });
  return {
    cookies: [cookie('sid', true), cookie('visible', false)],
    origins: [{ origin, localStorage: [{ name: 'token', value: `token-of-${name}` }] }],
  };
}

const alice: BrowserIdentity = {
  storageState: stateOf('alice'),
  locale: 'zh-CN',
  timezoneId: 'Asia/Shanghai',
};
const bob: BrowserIdentity = {
  storageState: stateOf('bob'),
  locale: 'en-GB',
  timezoneId: 'America/New_York',
};

const browser = new BrowserRunner({
  chromiumPath: '/usr/bin/chromium',
  concurrency: 3,
  maxWorkSeconds: 60,
});
t.teardown(() => browser.stop());
const signal = new AbortController().signal;

/** What a page of the site sees of itself. */
const VIEW = `(async () => {
  const fromWorker = await new Promise((resolve) => {
    const w = new Worker('/worker.js');
    w.onmessage = (e) => resolve(e.data);
  });
  return {
    cookie: document.cookie,
    token: localStorage.getItem('token'),
    late: localStorage.getItem('late'),
    server: await (await fetch('/whoami')).text(),
    language: navigator.language,
    languages: navigator.languages,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    worker: fromWorker,
  };
})()`;

interface View {
  cookie: string;
  token: string | null;
  late: string | null;
  server: string;
  language: string;
  languages: string[];
  timeZone: string;
  worker: { language: string; timeZone: string };
}

/** Resolves once `n` pages have arrived, so they are provably open at the same time. */
function barrier(n: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++arrived === n) release();
    return all;
  };
}

t.test('two accounts at the same time see only their own identity', async (t) => {
  const together = barrier(2);
  const run = (identity: BrowserIdentity) =>
    browser.open({
      url: `${site.url}/`,
      allowedOrigins: [origin],
      identity,
      signal,
      run: async (page: Page) => {
        await together();
        const before = (await page.evaluate(VIEW)) as View;
        // The site writes after the seeded state: a reload must keep its write.
        await page.evaluate(`localStorage.setItem('late', 'written by the site');
          localStorage.setItem('token', 'renewed-' + localStorage.getItem('token'))`);
        await page.reload();
        const after = (await page.evaluate(VIEW)) as View;
        return { before, after, state: await page.context().storageState() };
      },
    });
  const [a, b] = await Promise.all([run(alice), run(bob)]);

  t.match(a.before, {
    cookie: 'visible=alice',
    token: 'token-of-alice',
    server: 'alice',
    language: 'zh-CN',
    languages: ['zh-CN', 'zh'],
    timeZone: 'Asia/Shanghai',
    worker: { language: 'zh-CN', timeZone: 'Asia/Shanghai' },
  });
  t.match(b.before, {
    cookie: 'visible=bob',
    token: 'token-of-bob',
    server: 'bob',
    language: 'en-GB',
    languages: ['en-GB', 'en'],
    timeZone: 'America/New_York',
    worker: { language: 'en-GB', timeZone: 'America/New_York' },
  });
  t.match(a.after, { token: 'renewed-token-of-alice', late: 'written by the site' });
  t.match(b.after, { token: 'renewed-token-of-bob', late: 'written by the site' });

  const local = (s: StorageState) =>
    Object.fromEntries(
      s.origins.find((o) => o.origin === origin)!.localStorage.map((e) => [e.name, e.value]),
    );
  t.same(local(a.state), { token: 'renewed-token-of-alice', late: 'written by the site' });
  t.same(local(b.state), { token: 'renewed-token-of-bob', late: 'written by the site' });
  t.same(a.state.cookies.map((c) => `${c.name}=${c.value}`).sort(), ['sid=alice', 'visible=alice']);
  t.same(b.state.cookies.map((c) => `${c.name}=${c.value}`).sort(), ['sid=bob', 'visible=bob']);

  const languages = (who: string) => [
    ...new Set(seen.filter((s) => s.who === who).map((s) => s.acceptLanguage)),
  ];
  t.same(languages('alice'), ['zh-CN,zh;q=0.9'], 'every request of alice asks for Chinese');
  t.same(languages('bob'), ['en-GB,en;q=0.9']);
});

t.test('a later page without identity starts blank', async (t) => {
  const view = await browser.open({
    url: `${site.url}/`,
    allowedOrigins: [origin],
    signal,
    run: (page) => page.evaluate(VIEW) as Promise<View>,
  });
  t.match(view, { cookie: '', token: null, late: null, server: '' });
});

t.test(
  'a page answered 403 still reaches the work (a challenge is the driver’s to read)',
  async (t) => {
    const text = await browser.open({
      url: `${site.url}/challenge`,
      allowedOrigins: [origin],
      identity: alice,
      signal,
      run: (page) => page.locator('#challenge').textContent(),
    });
    t.equal(text, 'verify you are human');
  },
);
