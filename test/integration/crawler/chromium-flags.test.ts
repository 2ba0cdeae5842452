/**
 * Chromium keeps the last of repeated switches, so our `--disable-features`
 * replaces Playwright's own. Read the command line the browser really got
 * (chrome://version) and check that ours still disables every feature
 * Playwright asked for, plus the ones that call Google.
 */
import t from 'tap';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, SILENCED_FEATURES } from '../../../crawler/chromium-flags.js';

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: CHROMIUM_ARGS,
});
t.teardown(() => browser.close());

const page = await browser.newPage();
await page.goto('chrome://version');
const commandLine = (await page.locator('#command_line').textContent()) ?? '';

const featureLists = [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((m) =>
  m[1]!.split(','),
);

t.test('the command line is readable and has both lists', async (t) => {
  t.ok(commandLine.includes('--host-resolver-rules'), commandLine.slice(0, 200));
  t.equal(featureLists.length, 2, "Playwright's list, then ours");
});

t.test("ours, the one Chromium keeps, covers Playwright's and the silenced services", async (t) => {
  const [playwrights, ours] = featureLists as [string[], string[]];
  t.same(
    playwrights.filter((f) => !ours.includes(f)),
    [],
    'every feature Playwright disables (add new ones to PLAYWRIGHT_DISABLED_FEATURES)',
  );
  t.same(
    SILENCED_FEATURES.filter((f) => !ours.includes(f)),
    [],
  );
  t.equal(
    commandLine.lastIndexOf('--disable-features='),
    commandLine.indexOf(`--disable-features=${ours.join(',')}`),
    'ours comes last',
  );
});
