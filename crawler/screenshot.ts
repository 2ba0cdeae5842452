/**
 * A page's screenshot, taken once more after the next frame when Chromium had
 * no frame to capture ("Unable to capture screenshot"): a renderer starved of
 * CPU on a busy machine answers so now and then, and one frame later it has
 * one (seen in a whole test run once for mention shots, and once in a
 * browser-egress test beside a soak).
 */
import type { Page } from 'playwright';

export type ScreenshotOptions = NonNullable<Parameters<Page['screenshot']>[0]>;

export async function screenshotOf(page: Page, options: ScreenshotOptions): Promise<Buffer> {
  try {
    return await page.screenshot(options);
  } catch (err) {
    if (!/Unable to capture screenshot/.test(String(err))) throw err;
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(resolve))');
    return page.screenshot(options);
  }
}
