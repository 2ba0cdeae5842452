/**
 * The DOM-stability completion wait in real Chromium: it returns the answer's
 * text only once the text has stopped changing and the stop control is gone,
 * and it ends as soon as its signal aborts.
 */
import t from 'tap';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS } from '../../../crawler/browser.js';
import { waitForStableText } from '../../../crawler/web/dom-wait.js';
import { chromiumPath } from '../../../infra/processes.js';

const browser = await chromium.launch({
  executablePath: chromiumPath(),
  headless: true,
  args: CHROMIUM_ARGS,
});
t.teardown(() => browser.close());

/** A page whose answer grows every 150 ms until `growMs`, with a stop button until `stopMs`. */
const PAGE = (growMs: number, stopMs: number) => `
<div class="answer">old turn</div><div class="answer"></div>
<button class="stop">停止</button>
<script>
  const a = document.querySelectorAll('.answer')[1];
  const t0 = Date.now();
  const grow = setInterval(() => {
    if (Date.now() - t0 > ${growMs}) return clearInterval(grow);
    a.textContent += '字';
  }, 150);
  setTimeout(() => document.querySelector('.stop').remove(), ${stopMs});
</script>`;

t.test('waits for stable text and no stop control, then returns the last answer', async (t) => {
  const page = await browser.newPage();
  await page.setContent(PAGE(900, 900));
  const start = Date.now();
  const text = await waitForStableText(page, {
    selector: '.answer',
    stopSelector: '.stop',
    // 1.2 s of unchanged text: far longer than a busy machine stalls the page's 150 ms timer.
    intervalMs: 400,
    stableIntervals: 3,
    signal: AbortSignal.timeout(20_000),
  });
  t.match(text, /^字{4,}$/, 'the newest turn, complete');
  t.equal(text, await page.locator('.answer').last().textContent(), 'no more growth after it');
  t.ok(
    Date.now() - start >= 900 + 3 * 200 - 150,
    'not before growth stopped and 3 stable intervals',
  );
  await page.close();
});

t.test('stable text with the stop control still shown is not done', async (t) => {
  const page = await browser.newPage();
  await page.setContent(PAGE(300, 2_500));
  const start = Date.now();
  await waitForStableText(page, {
    selector: '.answer',
    stopSelector: '.stop',
    intervalMs: 200,
    signal: AbortSignal.timeout(20_000),
  });
  t.ok(Date.now() - start >= 2_500, 'waited for the stop control to go');
  await page.close();
});

t.test('an aborted signal ends the wait with its reason', async (t) => {
  const page = await browser.newPage();
  await page.setContent(PAGE(60_000, 60_000));
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('deadline')), 700);
  await t.rejects(
    waitForStableText(page, {
      selector: '.answer',
      stopSelector: '.stop',
      signal: controller.signal,
    }),
    { message: 'deadline' },
  );
  await page.close();
});
