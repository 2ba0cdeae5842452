import { BrowserRunner } from './crawler/browser.js';
import { RenderServer } from './crawler/render-server.js';
const rs = new RenderServer(); await rs.start();
const b = new BrowserRunner({ chromiumPath: '/usr/bin/chromium', concurrency: 4, maxWorkSeconds: 60 });
let t0 = Date.now();
const results = await Promise.all([1,2,3,4,5,6].map(async (i) => {
  const p = rs.publish(`<h1>hello ${i}</h1>`);
  const png = await b.open({ url: p.url, signal: AbortSignal.timeout(20000), run: async (page) => { const ua = await page.evaluate(() => navigator.userAgent); const png = await page.screenshot(); return { ua, size: png.length, sig: png.subarray(1,4).toString() }; } });
  p.dispose(); return png;
}));
console.log(results, Date.now() - t0, 'ms');
t0 = Date.now();
try { await b.open({ url: 'http://127.0.0.1:1/', signal: AbortSignal.timeout(20000), run: async () => 1 }); } catch (e) { console.log('nav error ok:', (e as Error).message.slice(0, 80), Date.now() - t0); }
await b.stop(); await rs.stop();
console.log('stopped');
