/**
 * What the crawler's Chromium sends, seen from outside: a recording forward
 * proxy (the region), the platform's site, and a foreign server the site's
 * page tries to reach in every way a page can (image, script, fetch, beacon,
 * WebSocket, an https iframe). Only the site's own origin may leave, and a page without a
 * regional proxy must never borrow one.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { BrowserRunner } from '../../../crawler/browser.js';
import { screenshotOf } from '../../../crawler/screenshot.js';
import { startForwardProxy } from '../../helpers/forward-proxy.js';

interface Hit {
  url: string;
  from: string;
}

async function recordingServer(html: (origin: string) => string) {
  const hits: Hit[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    hits.push({ url: req.url ?? '', from: req.socket.remoteAddress ?? '' });
    res.writeHead(200, { 'content-type': 'text/html' }).end(html(origin));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { origin, hits, target: origin.slice('http://'.length) };
}

const foreign = await recordingServer(() => 'foreign');
const site = await recordingServer(
  (own) => `<!doctype html><html><body>
<form><input id="name" name="name" autocomplete="name"><input name="email" type="email"></form>
<img src="${foreign.origin}/pixel.png">
<iframe src="https://frame.foreign.test/embed"></iframe>
<script src="${foreign.origin}/tracker.js"></script>
<script>
  fetch('${foreign.origin}/collect').catch(() => {});
  navigator.sendBeacon('${foreign.origin}/beacon', 'x');
  try { new WebSocket('${foreign.origin.replace('http', 'ws')}/ws'); } catch {}
  fetch('${own}/own').then(() => { document.body.dataset.own = 'yes'; });
</script>
</body></html>`,
);
const render = await recordingServer(() => '<p>answer</p>');
const region = await startForwardProxy('127.0.0.2');
t.teardown(() => region.stop());

const browser = new BrowserRunner({
  chromiumPath: '/usr/bin/chromium',
  concurrency: 2,
  maxWorkSeconds: 60,
});
t.teardown(() => browser.stop());
const signal = new AbortController().signal;

t.test('through a region, only the declared origin leaves', async (t) => {
  const own = await browser.open({
    url: `${site.origin}/`,
    proxyUrl: region.url,
    allowedOrigins: [site.origin],
    signal,
    run: async (page) => {
      await page.locator('#name').fill('Ada');
      await page.locator('input[name=email]').fill('ada@example.test');
      await page.waitForSelector('body[data-own="yes"]');
      // Chromium's own requests follow a filled form: leave them time to show.
      await page.waitForTimeout(1500);
      return page.getAttribute('body', 'data-own');
    },
  });
  t.equal(own, 'yes', 'the page reached its own origin');
  t.same(foreign.hits, [], 'the foreign server saw nothing');
  const targets = [...new Set(region.requests.map((r) => r.target))];
  // Not even a connection to the iframe's host: Chromium would preconnect to it
  // before the route sees the request, unless its network prediction is off
  // (the managed policy infra/setup.sh installs).
  t.same(targets, [site.target], 'the proxy carried only requests to the site');
  t.ok(
    site.hits.every((h) => h.from === '127.0.0.2'),
    'the site saw the regional exit only',
  );
});

t.test('a page without a region goes direct, never through an earlier page’s proxy', async (t) => {
  const before = region.requests.length;
  await browser.open({
    url: `${render.origin}/render/1`,
    allowedOrigins: [render.origin],
    signal,
    run: async (page) => screenshotOf(page, { type: 'png' }),
  });
  t.same(region.requests.slice(before), [], 'the regional proxy carried nothing');
  t.same(
    render.hits.map((h) => h.from.replace(/^::ffff:/, '')),
    ['127.0.0.1'],
    'the page came straight from this machine',
  );
});

t.test('a start page outside the declared origins is refused', async (t) => {
  const before = site.hits.length;
  await t.rejects(
    browser.open({
      url: `${site.origin}/`,
      proxyUrl: region.url,
      allowedOrigins: [render.origin],
      signal,
      run: async () => 'opened',
    }),
  );
  t.equal(site.hits.length, before, 'the site was not reached');
});
