/**
 * The dashboard in real Chromium: a finished sandbox task's page shows its
 * insights (issue 36) as two tables, each row read back against
 * `GET …/task/{taskId}/visibility`: the brands the answers recommend that
 * nobody watches (answers, share, mean and best position, where, an example
 * answer that opens), and the domains cited where a competitor is named and
 * Acme is not, with their page links, prompts, platforms and the contrast
 * count. At 1280 px and 390 px nothing overflows sideways; no console error.
 */
import t from 'tap';
import { brandsFor } from '../../../sandbox/answers.js';
import type { Visibility } from '../../../services/shared/contracts/brand.js';
import { testBrowser } from '../../helpers/chromium.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { openPage, snapBoth, startDashboardService } from '../../helpers/web-ui.js';

const { svc } = await startDashboardService(t, 20, { CRAWLER_CAPACITY: '4' });
const user = await svc.newUser('Acme brand team');
const browser = await testBrowser(t);
const M = '/api/business/monitor';
/** The second names neither watched brand's rival Acme: its sources are the opportunities. */
const PROMPTS = ['best CRM for a small team', 'Which CRM should a startup pick?'];

t.test('the task page shows the discovered brands and the opportunity domains', async (t) => {
  t.notOk(
    brandsFor(PROMPTS[1]!).some((b) => b.name === 'Acme'),
    'the second prompt leaves Acme out',
  );
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: PROMPTS,
      platforms: [
        { platform: 'sandbox', mode: 'search' },
        { platform: 'sandbox', mode: 'search', channel: 'web' },
      ],
      monitorKeywords: 'Acme, Globex',
    },
    user.token,
  );
  t.equal(res.status, 200, res.text);
  const taskId = res.body.data.taskId as string;
  await untilTaskFinal(svc.client, user.token, taskId, 60_000, 100);
  const v = (await svc.client.get(`${M}/task/${taskId}/visibility`, user.token)).body
    .data as Visibility;
  t.ok(v.discovered.length > 0 && v.opportunities.length > 0, 'the task has both insights');

  const { page, problems } = await openPage(browser, svc.client.baseUrl);
  await page.goto('/');
  await page.waitForURL('**/signin');
  await page.fill('input[name=apiKey]', user.apiKey);
  await page.click('button[type=submit]');
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto(`/tasks/${taskId}`);

  const brands = page.getByTestId('discovered-row');
  await brands.first().waitFor({ timeout: 15_000 });
  t.equal(await brands.count(), v.discovered.length, 'a row per discovered brand');
  for (const [i, d] of v.discovered.entries()) {
    const cells = (await brands.nth(i).locator('th, td').allInnerTexts()).map((c) => c.trim());
    t.equal(cells[0], d.name, `${d.name}: named`);
    t.equal(cells[1], String(d.answers), `${d.name}: answers`);
    t.equal(cells[2], `${Math.round(d.share * 1000) / 10}%`, `${d.name}: share`);
    t.equal(cells[3], String(Math.round(d.averagePosition * 10) / 10), `${d.name}: mean position`);
    t.equal(cells[4], String(d.bestPosition), `${d.name}: best position`);
    t.same(
      cells[5]!.split('\n'),
      d.places.map(
        (p) => `${[p.platform, p.channel, p.mode].filter(Boolean).join(' · ')}: ${p.answers}`,
      ),
      `${d.name}: where, by platform and channel`,
    );
    t.equal(
      await brands.nth(i).getByTestId('discovered-example').getAttribute('href'),
      `/tasks/${taskId}/answer/${d.example.subTaskId}`,
      `${d.name}: its example answer`,
    );
  }

  const domains = page.getByTestId('opportunity-row');
  t.equal(await domains.count(), v.opportunities.length, 'a row per opportunity domain');
  for (const [i, o] of v.opportunities.entries()) {
    const row = domains.nth(i);
    t.equal((await row.locator('th').innerText()).split('\n')[0], o.domain, `${o.domain}: named`);
    const cells = (await row.locator('td').allInnerTexts()).map((c) => c.trim());
    t.equal(cells[0], String(o.answers), `${o.domain}: answers without Acme`);
    t.equal(await row.getByTestId('contrast').innerText(), String(o.userAnswers), 'the contrast');
    const links = async (testId: string) =>
      (await row.getByTestId(testId).count()) === 0
        ? []
        : row
            .getByTestId(testId)
            .locator('a')
            .evaluateAll((as) =>
              as.map((a) => ({ url: a.getAttribute('href'), title: a.textContent })),
            );
    t.same(await links('pages'), o.pages, `${o.domain}: its cited pages, linked by title`);
    t.same(await links('retrieved'), o.retrieved, `${o.domain}: retrieved, not cited`);
    t.same(cells[4]!.split('\n'), o.competitors, `${o.domain}: competitors`);
    t.same(cells[5]!.split('\n'), o.prompts, `${o.domain}: prompts`);
    t.same(
      cells[6]!.split('\n'),
      o.places.map((p) => [p.platform, p.channel, p.mode].filter(Boolean).join(' · ')),
      `${o.domain}: platforms`,
    );
  }
  t.ok(
    v.opportunities.some((o) => o.pages.length > 0 && o.prompts.includes(PROMPTS[1]!)),
    'a page cited where Acme is missing, from the prompt that leaves it out',
  );

  for (const [width, list] of Object.entries(await snapBoth(page, 'task-insights'))) {
    t.same(list, [], `no sideways overflow at ${width} px`);
  }

  // The example opens its answer, which names the brand.
  const first = v.discovered[0]!;
  await brands.first().getByTestId('discovered-example').click();
  await page.waitForURL(`**/answer/${first.example.subTaskId}`);
  await page.getByTestId('markdown').first().getByText(first.name).first().waitFor();

  // The Chinese UI names the columns in Chinese, same rows.
  await page.goto(`/tasks/${taskId}`);
  await page.getByTestId('lang').click();
  await page.getByText('回答推荐了、但您未监测的品牌').waitFor();
  t.equal(await page.getByTestId('opportunity-row').count(), v.opportunities.length);
  for (const [width, list] of Object.entries(await snapBoth(page, 'task-insights-zh'))) {
    t.same(list, [], `no sideways overflow at ${width} px, in Chinese`);
  }
  await page.getByTestId('lang').click();

  t.same(problems, [], 'no script errors and no CSP violations');
  await page.context().close();
});
