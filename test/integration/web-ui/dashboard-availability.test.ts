/**
 * The new batch form shows the service's verdict on each channel (GET
 * /platforms for the chosen region), in real Chromium: DeepSeek's site is
 * unavailable without an account, available once one is added, unavailable
 * again for a region without one, and the refused submission says why under
 * the platforms.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import { addDeepseekAccount } from '../../helpers/deepseek-account.js';
import { until } from '../../helpers/wait.js';
import { openPage, startDashboardService } from '../../helpers/web-ui.js';

const SH = '310100';
const { svc } = await startDashboardService(t, 10, {
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
  // No case lets a DeepSeek web sub task run; none could leave the machine.
  DEEPSEEK_WEB_URL: 'http://127.0.0.1:9/',
});
const user = await svc.newUser('availability');
const browser = await testBrowser(t);

t.test('each channel says whether it runs, and what is missing', async (t) => {
  const { page, problems } = await openPage(browser, svc.client.baseUrl);
  await page.goto('/signin');
  await page.fill('input[name=apiKey]', user.apiKey);
  await page.click('button[type=submit]');
  await page.waitForURL((url) => url.pathname === '/');

  const site = page.getByTestId('channel-deepseek-web');
  const openForm = async () => {
    await page.goto('/new');
    await page.getByTestId('channel-sandbox-api').getByText('available').waitFor();
  };
  await openForm();
  t.match(await site.locator('.avail').textContent(), /^unavailable$/);
  t.equal(await site.locator('.missing').textContent(), 'no usable account');
  t.equal(
    await site.locator('.missing').getAttribute('title'),
    'no usable account',
    "the service's reason",
  );

  await addDeepseekAccount(svc.broker, 'anywhere', null);
  await openForm();
  t.equal(await site.locator('.avail').textContent(), 'available', 'an account: available');
  t.equal(await site.locator('.missing').count(), 0);

  // The region list comes from the city lookup once the port is checked active.
  await until(
    'the Shanghai region to be offered',
    async () => {
      await openForm();
      const options = await page.locator('select[name=regionCode] option').allTextContents();
      return options.some((o) => o.includes(SH) && !o.includes('inactive')) ? true : undefined;
    },
    30_000,
    500,
  );
  await page.selectOption('select[name=regionCode]', SH);
  await site.locator('.missing').waitFor();
  t.equal(await site.locator('.avail').textContent(), 'unavailable');
  t.equal(await site.locator('.missing').textContent(), `no usable account in region ${SH}`);

  await page.fill('textarea[name=prompts]', 'Which CRM suits a small team?');
  await page.check('input[name=use-deepseek-web]');
  await page.click('button[type=submit]');
  const refused = page.getByTestId('error-platforms');
  await refused.waitFor();
  t.match(
    await refused.textContent(),
    `deepseek is unavailable on the web channel: no usable account in region ${SH} (usable ones: without region)`,
    'the 400 names the region, under the platforms',
  );
  t.equal(new URL(page.url()).pathname, '/new', 'nothing submitted');
  t.same(problems, []);
});
