/**
 * The dashboard in real Chromium against the running service (sandbox
 * platform, a regional forward proxy on loopback, a webhook receiver): sign
 * in, a batch from the form with one refused field shown where it belongs,
 * fixed and submitted; live progress to the end; visibility charts; a CSV
 * export; an answer with highlights, sources, reasoning and its screenshot,
 * both channels side by side; the Chinese UI; sign out. Every page is
 * screenshotted at 1280 px and 390 px and must not overflow sideways.
 */
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import { openPage, snapBoth, startDashboardService } from '../../helpers/web-ui.js';

const { svc, receiver } = await startDashboardService(t, 1200, { CRAWLER_CAPACITY: '4' });
const user = await svc.newUser('Acme brand team');
/** Page code as text: the test program is compiled without the DOM's types. */
const TOKEN = "sessionStorage.getItem('monitor.token')";
const browser = await testBrowser(t);

t.test(
  'sign in, submit from the form, watch it live, read an answer, export, sign out',
  async (t) => {
    const { page, problems } = await openPage(browser, svc.client.baseUrl);
    const noOverflow = (found: Record<string, string[]>, what: string) => {
      for (const [width, list] of Object.entries(found)) t.same(list, [], `${what} at ${width} px`);
    };

    // Sign in: an unknown route of the app without a token lands on sign-in.
    await page.goto('/');
    await page.waitForURL('**/signin');
    noOverflow(await snapBoth(page, 'signin'), 'sign-in');
    await page.fill('input[name=apiKey]', user.apiKey);
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('No tasks yet.').waitFor();
    t.ok(await page.evaluate(TOKEN), 'the token is kept for the tab');

    // The form: platforms and regions from the API.
    await page.getByRole('link', { name: 'New batch' }).click();
    const region = page.locator('select[name=regionCode]');
    await region.locator('option').nth(1).waitFor({ state: 'attached', timeout: 10_000 });
    t.match(await region.locator('option').nth(1).textContent(), /上海.*310100/);
    await page.fill(
      'textarea[name=prompts]',
      // The second prompt answers slowly (a sandbox directive): the charts show while it runs.
      '1. Which CRM suits a small team?\n\n2. 推荐几款适合小团队的CRM #latency:8000\n',
    );
    await page.getByText('Prompts (2)').waitFor();
    t.match(
      await page.getByTestId('channel-sandbox-api').textContent(),
      /available/,
      'availability per channel',
    );
    await page.check('input[name=use-sandbox-api]');
    await page.selectOption('select[name=mode-sandbox-api]', 'reasoning_search');
    await page.check('input[name=use-sandbox-web]');
    await page.selectOption('select[name=mode-sandbox-web]', 'search');
    await page.selectOption('select[name=screenshot]', '1');
    await region.selectOption('310100');
    await page.fill('input[name=name]', ' CRM shortlist ');
    await page.fill('input[name=monitorKeywords]', 'Globex|格罗贝克斯, Initech');
    await page.fill('input[name=callbackUrl]', 'ftp://127.0.0.1/hook');
    await page.click('button[type=submit]');
    const refused = page.getByTestId('error-callbackUrl');
    await refused.waitFor();
    t.match(await refused.textContent(), /absolute http/, 'the refusal names the field');
    t.equal(await page.getByTestId('error-prompts').count(), 0, 'no other field is blamed');
    t.equal(new URL(page.url()).pathname, '/new', 'nothing submitted');
    noOverflow(await snapBoth(page, 'new-batch'), 'new batch form with an error');

    await page.fill('input[name=callbackUrl]', `${receiver.url}/hook`);
    await page.click('button[type=submit]');
    await page.waitForURL('**/tasks/*');
    const taskId = new URL(page.url()).pathname.split('/')[2]!;
    t.equal(await page.getByTestId('task-title').textContent(), 'CRM shortlist', 'named');

    // Live: the stream's pill, a cell in progress, then every cell final without a reload.
    await page.getByTestId('live-state').getByText('live').waitFor({ timeout: 10_000 });
    await page.locator('td[data-status=processing]').first().waitFor({ timeout: 15_000 });
    const marker = await page.evaluate<number>('window.kept = Date.now()');
    await page.getByTestId('visibility-so-far').waitFor({ timeout: 20_000 });
    t.match(
      await page.getByTestId('live-state').textContent(),
      /live/,
      'the charts count the answers so far while the task runs',
    );
    t.ok((await page.locator('td[data-status=completed]').count()) < 4, 'not all answered yet');
    await page.getByTestId('live-state').getByText('finished').waitFor({ timeout: 40_000 });
    t.equal(await page.evaluate('window.kept'), marker, 'the same page followed it to the end');
    t.equal(await page.locator('td[data-status=completed]').count(), 4, 'four cells completed');
    t.match(await page.getByTestId('counters').textContent(), /4\/4 completed, 0 failed/);
    await page.getByTestId('visibility-so-far').waitFor({ state: 'detached' });
    await page.getByTestId('chart-rate').locator('canvas').waitFor();
    t.equal(await page.getByTestId('visibility').locator('canvas').count(), 4, 'four charts');
    noOverflow(await snapBoth(page, 'task'), 'task page');

    // Export: a real download of the CSV.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-format=csv').click(),
    ]);
    t.equal(csv.suggestedFilename(), `${taskId}.csv`);
    const text = await readFile((await csv.path())!, 'utf8');
    t.match(text.split('\n')[0], /Globex count/, 'the CSV has the keyword columns');
    t.equal(
      text.match(/^CRM shortlist,[0-9a-f-]{36},/gm)?.length,
      4,
      'a row per sub task, with the task name',
    );

    // An answer: both channels side by side, highlights, sources, reasoning, screenshot.
    await page
      .locator('tr', { hasText: 'Which CRM suits a small team?' })
      .locator('td.cell a')
      .first()
      .click();
    await page.waitForURL('**/answer/*');
    const api = page.getByTestId('answer-api');
    const web = page.getByTestId('answer-web');
    await api.waitFor();
    await web.waitFor();
    const [apiBox, webBox] = [await api.boundingBox(), await web.boundingBox()];
    t.ok(apiBox!.x < webBox!.x && Math.abs(apiBox!.y - webBox!.y) < 2, 'side by side at 1280 px');
    const marks = await api.locator('[data-testid=markdown] mark').allTextContents();
    t.ok(marks.includes('Globex') && marks.includes('Initech'), `keywords highlighted: ${marks}`);
    t.ok(marks.includes('格罗贝克斯'), `an alias is highlighted for its group: ${marks}`);
    // The dashboard marks exactly what the service counted, group by group.
    const apiSub = (
      await svc.client.get(`/api/business/monitor/task/result/${taskId}`, user.token)
    ).body.data.subTaskList.find(
      (s: { prompt: string; channel: string | null }) =>
        s.prompt === 'Which CRM suits a small team?' && s.channel !== 'web',
    );
    for (const m of apiSub.mentions as { keyword: string; count: number }[]) {
      t.equal(
        await api.locator(`[data-testid=markdown] mark[data-keyword="${m.keyword}"]`).count(),
        m.count,
        `${m.keyword}: as many marks as the service counted`,
      );
    }
    t.ok((await api.locator('[data-testid=references] li').count()) > 1, 'references listed');
    t.ok((await api.locator('[data-testid=references] li.cited').count()) >= 1, 'cited marked');
    const named = apiSub.mentions.find((m: { count: number }) => m.count > 0) as {
      keyword: string;
      position: number;
      groupRank: number;
    };
    t.match(
      await api.getByTestId('mentions').textContent(),
      `${named.keyword}: `,
      'the mentions chips name the group',
    );
    t.match(
      await api.getByTestId('mentions').textContent(),
      `position ${named.position} · ${named.groupRank} of your brands`,
      'with its position among all brands and its rank among the groups',
    );
    t.ok(await api.getByTestId('reasoning').isVisible(), 'reasoning, collapsed');
    t.ok((await api.getByTestId('follow-ups').locator('li').count()) > 0, 'follow-ups');
    t.equal(
      await api.locator('[data-testid=markdown] script, [data-testid=markdown] [onerror]').count(),
      0,
    );
    const shot = api.getByTestId('screenshot');
    await page.waitForFunction(
      `(() => { const img = document.querySelector('[data-testid=answer-api] img[data-testid=screenshot]'); return img && img.complete && img.naturalWidth > 0; })()`,
    );
    await shot.click();
    await page.getByTestId('zoomed').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('zoomed').waitFor({ state: 'detached' });
    const [raw] = await Promise.all([
      page.waitForEvent('download'),
      web.getByTestId('raw-evidence').click(),
    ]);
    t.match(raw.suggestedFilename(), /\.ndjson$/, 'the web answer links its raw evidence');
    noOverflow(await snapBoth(page, 'answer'), 'answer page');

    // Chinese text, then the task list in it.
    await page.getByTestId('lang').click();
    await page.getByRole('link', { name: '任务', exact: true }).click();
    await page.getByTestId('task-row').first().waitFor();
    await page.selectOption('select[name=status]', 'completed');
    await page.getByText('第 1 / 1 页').waitFor();
    t.equal(await page.getByTestId('task-row').count(), 1, 'the completed task, filtered');
    t.equal(await page.getByTestId('task-name').textContent(), 'CRM shortlist', 'its name');
    noOverflow(await snapBoth(page, 'tasks-zh'), 'task list');
    await page.getByTestId('lang').click();

    await page.getByTestId('sign-out').click();
    await page.waitForURL('**/signin');
    t.equal(await page.evaluate(TOKEN), null, 'the token is gone');
    await page.goto(`/tasks/${taskId}`);
    await page.waitForURL('**/signin');

    t.same(problems, [], 'no script errors and no CSP violations');
    await page.context().close();
  },
);
