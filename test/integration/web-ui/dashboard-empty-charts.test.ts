/**
 * The dashboard in real Chromium: a finished task whose answers name none of
 * its keywords and cite no source shows, in place of blank charts, why they
 * are empty; a task with no completed answer says that instead.
 */
import t from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import { until } from '../../helpers/wait.js';
import { openPage, snapBoth, startDashboardService } from '../../helpers/web-ui.js';

const { svc } = await startDashboardService(t, 50);
const user = await svc.newUser('Hooli brand team');
const browser = await testBrowser(t);

/** Submits through the API and waits until the task is final. */
async function finishedTask(prompt: string): Promise<string> {
  const res = await svc.client.post(
    '/api/business/monitor/task/batch/shared',
    {
      // The sandbox's answer to this prompt names Globex, Initech and Umbrella, never Hooli.
      monitorKeywords: 'Hooli|呼利',
      prompts: [prompt],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
    },
    user.token,
  );
  if (res.status !== 200) throw new Error(res.text);
  const taskId = res.body.data.taskId as string;
  await until('the task is final', async () => {
    const s = await svc.client.get(`/api/business/monitor/task/status/${taskId}`, user.token);
    return ['completed', 'partial_completed', 'failed'].includes(s.body.data.status as string);
  });
  return taskId;
}

t.test('empty charts say why', async (t) => {
  const unmentioned = await finishedTask('Which CRM suits a small team?');
  const unanswered = await finishedTask('Which CRM suits a small team? #fail:401');
  const { page, problems } = await openPage(browser, svc.client.baseUrl);
  await page.goto('/');
  await page.waitForURL('**/signin');
  await page.fill('input[name=apiKey]', user.apiKey);
  await page.click('button[type=submit]');
  await page.waitForURL((url) => url.pathname === '/');

  await page.goto(`/tasks/${unmentioned}`);
  for (const chart of ['chart-rate', 'chart-top3', 'chart-share']) {
    const empty = page.getByTestId(`${chart}-empty`);
    await empty.waitFor({ timeout: 15_000 });
    t.equal(await empty.textContent(), 'No answer mentions any keyword yet.', chart);
    t.equal(
      await page.getByTestId(chart).locator('canvas').count(),
      0,
      `${chart}: no blank canvas`,
    );
  }
  t.match(
    await page.getByTestId('chart-domains-empty').textContent(),
    /No answer cites a source yet/,
    'a standard-mode answer cites nothing',
  );
  const found = await snapBoth(page, 'empty-charts');
  for (const [width, list] of Object.entries(found)) t.same(list, [], `no overflow at ${width} px`);

  await page.goto(`/tasks/${unanswered}`);
  const none = page.getByTestId('chart-rate-empty');
  await none.waitFor({ timeout: 15_000 });
  t.equal(await none.textContent(), 'No completed answer to count yet.');
  t.equal(
    await page.getByTestId('chart-domains-empty').textContent(),
    'No completed answer to count yet.',
  );
  t.same(problems, [], 'no script errors or CSP refusals');
});
