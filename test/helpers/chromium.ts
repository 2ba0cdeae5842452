/** Real headless Chromium launched as crawler nodes launch it, closed with the test. */
import { chromium, type Browser } from 'playwright';
import { CHROMIUM_ARGS } from '../../crawler/chromium-flags.js';
import { chromiumPath } from '../../infra/processes.js';

interface Teardown {
  teardown(fn: () => Promise<void> | void): void;
}

/** The browser, closed at the test's end together with `alsoClose` (replicas, servers). */
export async function testBrowser(
  t: Teardown,
  ...alsoClose: { close(): Promise<void> }[]
): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  t.teardown(async () => {
    await browser.close();
    await Promise.all(alsoClose.map((c) => c.close()));
  });
  return browser;
}
