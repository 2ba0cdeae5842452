/**
 * The documentation page in real headless Chromium: Swagger UI, served by the
 * api itself, renders the OpenAPI document (operations by tag, an example of
 * an expanded operation, the callback webhook) under the page's own
 * Content-Security-Policy, and nothing it loads leaves 127.0.0.1.
 */
import t from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import { startEmbedded } from '../../helpers/cluster.js';

const svc = await startEmbedded(t);
const browser = await testBrowser(t);

t.test('Swagger UI renders the document offline', async (t) => {
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const outside: string[] = [];
  const loaded: string[] = [];
  // Every request is seen here first: one to any other host is refused and recorded.
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname !== '127.0.0.1') {
      outside.push(url.href);
      await route.abort('blockedbyclient');
      return;
    }
    loaded.push(url.pathname);
    await route.continue();
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });

  const res = await page.goto(`${svc.client.baseUrl}/api/business/docs`);
  t.equal(res?.status(), 200);
  t.match(res?.headers()['content-security-policy'], /script-src 'self'/);

  // The operations list: one block per operation, grouped under its tag.
  await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
  for (const tag of ['tasks', 'callbacks', 'auth', 'service']) {
    t.ok(await page.locator(`.opblock-tag[data-tag="${tag}"]`).isVisible(), `tag ${tag}`);
  }
  const submit = page.locator('#operations-tasks-post_api_business_monitor_task_batch_shared');
  t.ok(await submit.isVisible(), 'the submit operation is listed');
  t.match(
    await submit.locator('.opblock-summary-path').innerText(),
    '/api/business/monitor/task/batch/shared',
  );
  t.ok(
    await page
      .locator('.opblock-summary-path', { hasText: '/api/business/monitor/task/{taskId}/events' })
      .isVisible(),
    'the events stream is listed',
  );

  // Expanded, the operation shows its request example and its answers' examples.
  await submit.locator('.opblock-summary').click();
  const body = submit.locator('.opblock-body');
  await body.waitFor({ timeout: 10_000 });
  await body.locator('.body-param__example').first().waitFor({ timeout: 10_000 });
  t.match(await body.locator('.body-param__example').first().innerText(), /"prompts"/);
  const answers = await body.locator('.responses-wrapper').innerText();
  t.match(answers, /"taskId"/, 'the success example');
  t.match(answers, /VALIDATION_FAILED|"success": false/, 'an error example');

  const webhooks = page.locator('.webhooks');
  t.match(await webhooks.locator('h2').innerText(), 'Webhooks');
  t.same(
    await webhooks.locator('.opblock-summary-path').allInnerTexts(),
    ['taskFinished', 'monitorChanges', 'monitorDigest'],
    'the task callback, the monitor alert and the digest',
  );

  t.same(outside, [], 'no request left 127.0.0.1');
  t.same(problems, [], 'no script error, no Content-Security-Policy violation');
  t.ok(loaded.includes('/api/business/docs/assets/swagger-ui-bundle.js'));
  t.ok(loaded.includes('/api/business/openapi.json'));
});
