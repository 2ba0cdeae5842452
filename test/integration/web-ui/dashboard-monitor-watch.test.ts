/**
 * The monitor page's brands nobody watched, in real Chromium against the
 * real service (issue 36): after a run, the table lists the brands the
 * answers recommend besides the keywords, each with its share, interval and
 * run-by-run trend, at 1280 and 390 px without overflow; its "watch" button
 * makes one a keyword of the monitor (POST …/watch), the row then says so,
 * and the next run measures it as a brand of the trend. No console error.
 */
import t from 'tap';
import { brandsFor } from '../../../sandbox/answers.js';
import { testBrowser } from '../../helpers/chromium.js';
import { until } from '../../helpers/wait.js';
import { openPage, snapBoth, startDashboardService } from '../../helpers/web-ui.js';

const { svc } = await startDashboardService(t, 20);
const user = await svc.newUser('Acme brand team');
const browser = await testBrowser(t);
const MONITORS = '/api/business/monitor/monitors';
const PROMPT = 'best CRM for a small team';

t.test('the discovered brands table and its watch button', async (t) => {
  const [watched, ...unwatched] = brandsFor(PROMPT).map((b) => b.name);
  t.strictSame([watched, ...unwatched], ['Acme', 'Initech', 'Hooli'], 'the sandbox as read here');
  const created = await svc.client.post(
    MONITORS,
    {
      name: 'CRM discovered',
      prompts: [PROMPT],
      platforms: [{ platform: 'sandbox', mode: 'search' }],
      monitorKeywords: 'Acme',
      samples: 2,
      schedule: { cron: '0 9 * * *', timezone: 'UTC' },
      enabled: false,
    },
    user.token,
  );
  t.equal(created.status, 200, created.text);
  const monitorId = created.body.data.monitorId as string;
  const finishedRuns = async (n: number) =>
    until(`${n} finished runs`, async () => {
      const runs = await svc.client.get(`${MONITORS}/${monitorId}/runs`, user.token);
      const list = runs.body.data.runs as { status: string }[];
      return list.filter((r) => r.status === 'finished').length >= n;
    });
  await svc.client.post(`${MONITORS}/${monitorId}/run`, {}, user.token);
  await finishedRuns(1);

  const { page, problems } = await openPage(browser, svc.client.baseUrl);
  await page.goto('/signin');
  await page.fill('input[name=apiKey]', user.apiKey);
  await page.click('button[type=submit]');
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto(`/monitors/${monitorId}`);

  const rows = page.getByTestId('discovered-row');
  await rows.first().waitFor({ timeout: 15_000 });
  t.strictSame(await page.getByTestId('discovered-name').allTextContents(), unwatched);
  const hooli = rows.filter({ hasText: 'Hooli' });
  t.match(
    await hooli.textContent(),
    /100% \(\d+(\.\d)?–100%, n = 2\)/,
    'the share of the latest run with its interval and n',
  );
  t.equal(await page.getByTestId('watch').count(), 2, 'a watch button per unwatched brand');
  const found = await snapBoth(page, 'monitor-discovered');
  for (const [width, list] of Object.entries(found)) t.same(list, [], `no overflow at ${width} px`);

  await hooli.getByTestId('watch').click();
  await page.getByTestId('watch-note').waitFor();
  t.equal(
    await page.getByTestId('watch-note').textContent(),
    'Now watching Hooli: the next run measures it.',
  );
  await hooli.getByTestId('discovered-watched').waitFor();
  t.equal(await page.getByTestId('watch').count(), 1, 'Initech still has its button');
  const monitor = await svc.client.get(`${MONITORS}/${monitorId}`, user.token);
  t.equal(monitor.body.data.monitorKeywords, 'Acme, Hooli', 'a keyword of the monitor now');
  const found390 = await snapBoth(page, 'monitor-discovered-watched');
  for (const [width, list] of Object.entries(found390))
    t.same(list, [], `watched: no overflow at ${width} px`);

  // The next run measures it like any keyword: the trend's brand picker offers it.
  await page.getByTestId('run-now').click();
  await finishedRuns(2);
  await page.reload();
  await page.locator('select[name=keyword] option', { hasText: 'Hooli' }).waitFor({
    state: 'attached',
    timeout: 15_000,
  });
  await page.selectOption('select[name=keyword]', 'Hooli');
  await page.getByTestId('chart-trend').locator('canvas').waitFor();
  t.match(
    await page.getByTestId('latest-rates').textContent(),
    /100% \(\d+(\.\d)?–100%, n = 2\)/,
    "Hooli's mention rate in the run after it was watched",
  );
  t.same(problems, [], 'no script errors or CSP refusals');
});
