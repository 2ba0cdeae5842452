/**
 * BrowserRunner starts new work while other pages still run, up to its
 * concurrency: Crawlee's pool, left alone, looked for new requests only when
 * a running page ended, so a lease arriving mid-answer waited for another
 * answer to finish (seconds of driver overhead per web sub task).
 */
import t from 'tap';
import { BrowserRunner } from '../../../crawler/browser.js';
import { sendHtml, startSite } from '../../../replicas/common/site.js';
import { chromiumPath } from '../../../infra/processes.js';

const HOLD_MS = 15_000;

const site = await startSite([
  { method: 'GET', path: '/', handle: (_q, res) => sendHtml(res, 'ok') },
]);
const runner = new BrowserRunner({
  chromiumPath: chromiumPath(),
  concurrency: 4,
  maxWorkSeconds: 60,
});
t.teardown(async () => {
  await runner.stop();
  await site.close();
});

function work(holdMs: number, started: (at: number) => void): Promise<void> {
  return runner.open({
    url: site.url,
    allowedOrigins: [site.url],
    signal: new AbortController().signal,
    run: async () => {
      started(Date.now());
      await new Promise((resolve) => setTimeout(resolve, holdMs));
    },
  });
}

t.test('work asked for while two pages run starts before they end', async (t) => {
  const heldStarts: number[] = [];
  const held = [
    work(HOLD_MS, (at) => heldStarts.push(at)),
    work(HOLD_MS, (at) => heldStarts.push(at)),
  ];
  while (heldStarts.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
  const asked = Date.now();
  const lateStarts: number[] = [];
  await Promise.all([work(10, (at) => lateStarts.push(at)), work(10, (at) => lateStarts.push(at))]);
  const heldEnd = Math.max(...heldStarts) + HOLD_MS;
  for (const at of lateStarts) {
    t.ok(
      at < heldEnd,
      `started ${at - asked} ms after it was asked for, before the held pages ended`,
    );
  }
  await Promise.all(held);
});
