/**
 * How the api serves the dashboard (index.html for the app's routes, hashed
 * assets cached for good, a CSP, JSON 404s elsewhere), a refused API key, the
 * Chinese UI from the browser's language, and the operator pages in real
 * Chromium: shown to operators only (others are told the role and how it is
 * granted, the grant command wrapped inside its card at 390 px), with crawler
 * nodes by region, proxy ports and their health, accounts and the callback
 * deliveries of a task; collector health, where a drifting site stands out.
 */
import t from 'tap';
import { testBrowser } from '../../helpers/chromium.js';
import { until } from '../../helpers/wait.js';
import {
  openPage,
  overflow,
  overflowOfBox,
  snapBoth,
  startDashboardService,
  WIDTHS,
} from '../../helpers/web-ui.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';

const { svc, receiver, proxy } = await startDashboardService(t, 50);
const browser = await testBrowser(t);
const M = '/api/business/monitor';

t.test('the api serves the app, its assets and a CSP; other paths stay JSON', async (t) => {
  const root = await svc.client.get('/');
  t.equal(root.status, 200);
  t.match(root.headers.get('content-type'), /^text\/html/);
  t.match(root.headers.get('content-security-policy'), /default-src 'none'; script-src 'self'/);
  t.equal(root.headers.get('cache-control'), 'no-cache');
  for (const path of [
    '/tasks/abc',
    '/tasks/abc/answer/def',
    '/new',
    '/operator',
    '/operator/collectors',
    '/monitors',
    '/monitors/abc',
    '/signin',
  ]) {
    const res = await svc.client.get(path);
    t.equal(res.status, 200, `${path}: the app (a reload of a client route)`);
    t.equal(res.text, root.text);
  }
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(root.text)?.[1];
  t.ok(asset, 'index.html names a hashed script');
  const js = await svc.client.get(asset!);
  t.equal(js.status, 200);
  t.match(js.headers.get('content-type'), /^text\/javascript/);
  t.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  for (const path of ['/nothing-here', '/assets/missing.js', '/assets/..%2Findex.html']) {
    const res = await svc.client.get(path);
    t.equal(res.status, 404, path);
    t.match(res.body, { success: false, code: 404 });
  }
  const post = await svc.client.post('/', {});
  t.equal(post.status, 405, 'the app is read-only');
});

t.test('a wrong key is refused; the UI speaks the browser language', async (t) => {
  const { page, problems } = await openPage(browser, svc.client.baseUrl, 'zh-CN');
  await page.goto('/signin');
  await page.getByRole('heading', { name: '登录' }).waitFor();
  await page.fill('input[name=apiKey]', 'amk_not-a-key');
  await page.click('button[type=submit]');
  await page.locator('.error').waitFor();
  t.equal(new URL(page.url()).pathname, '/signin', 'still signed out');
  t.same(problems, []);
  await page.context().close();
});

async function signIn(apiKey: string) {
  const watched = await openPage(browser, svc.client.baseUrl, 'en-US');
  await watched.page.goto('/signin');
  await watched.page.fill('input[name=apiKey]', apiKey);
  await watched.page.click('button[type=submit]');
  await watched.page.waitForURL((url) => url.pathname === '/');
  await watched.page.getByTestId('task-row').or(watched.page.getByText('No tasks yet.')).waitFor();
  return watched;
}

t.test('operator pages: for operators only', async (t) => {
  const plain = await svc.newUser('plain');
  const ops = await svc.newUser('ops');
  await svc.broker.call('users.setRole', { userId: ops.userId, role: 'operator' });
  await until('an active proxy port', async () => {
    const res = await svc.client.get('/api/business/eip-edge/ports/city-info');
    return (res.body.data as { active: boolean }[]).some((p) => p.active);
  });
  // A finished task whose callback was delivered to the receiver.
  const submitted = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: ['Which CRM suits a small team?'],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
      callbackUrl: `${receiver.url}/ops`,
    },
    ops.token,
  );
  const taskId = submitted.body.data.taskId as string;
  await until('the callback delivered', async () => receiver.requestsTo('/ops').length > 0);

  const asPlain = await signIn(plain.apiKey);
  await asPlain.page.locator('.who').waitFor();
  t.equal(await asPlain.page.getByTestId('nav-operator').count(), 0, 'no operator link');
  await asPlain.page.goto('/operator');
  const only = asPlain.page.getByTestId('operator-only');
  await only.waitFor();
  const said = (await only.textContent()) ?? '';
  t.match(said, /needs the operator role/, 'the page says which role it needs');
  t.match(said, /with the role "user"/, 'and which role the user has');
  t.match(
    said,
    `npm run admin -- set-role --user ${plain.userId} --role operator`,
    'and how an operator grants it',
  );
  // The grant command fits its card on a phone, wrapped rather than sticking out sideways.
  await asPlain.page.setViewportSize(WIDTHS.phone);
  await asPlain.page.evaluate(
    'new Promise((r) => requestAnimationFrame(() => setTimeout(r, 150)))',
  );
  t.same(
    await overflowOfBox(asPlain.page, '[data-testid=operator-only]'),
    [],
    `nothing sticks out of the card at ${WIDTHS.phone.width} px`,
  );
  t.same(await overflow(asPlain.page), [], 'nor out of the page');
  t.same(asPlain.problems, []);
  await asPlain.page.context().close();

  const { page, problems } = await signIn(ops.apiKey);
  await page.getByTestId('nav-operator').click();
  await page.waitForURL('**/operator');
  const nodes = page.getByTestId('nodes').first();
  await nodes.waitFor();
  // The node serves Shanghai as a province and as a city: listed under both.
  await page.getByRole('heading', { name: /Regions: 上海市 310000/ }).waitFor();
  await page.getByRole('heading', { name: /Regions: 上海市 310100/ }).waitFor();
  t.match(await nodes.textContent(), /sandbox/, 'the node and its platforms');
  const ports = page.getByTestId('ports');
  await ports.waitFor();
  t.match(await ports.textContent(), new RegExp(String(proxy.port)), 'the proxy port');
  t.equal((await ports.locator('td.yes').count()) >= 1, true, 'active, shown as healthy');
  await page.getByTestId('accounts').waitFor();
  await page.fill('input[name=taskId]', taskId);
  await page.getByRole('button', { name: 'Show' }).click();
  const delivery = page.getByTestId('delivery');
  await delivery.waitFor();
  t.match(await delivery.textContent(), new RegExp(`${receiver.url}/ops`), 'the delivery');
  t.match(await page.getByTestId('attempts').textContent(), /200/, 'the attempt and its status');
  const found = await snapBoth(page, 'operator');
  for (const [width, list] of Object.entries(found)) t.same(list, [], `no overflow at ${width}`);
  t.same(problems, []);
  await page.context().close();
});

t.test('collector health: a site whose last hour is all drift stands out', async (t) => {
  const ops = await svc.newUser('collector-ops');
  await svc.broker.call('users.setRole', { userId: ops.userId, role: 'operator' });
  // The sandbox's page gives the driver nothing to read: drift, and no answer in the hour.
  const submitted = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: ['blank #fail:empty', 'blank again #fail:empty'],
      platforms: [{ platform: 'sandbox-web', mode: 'standard' }],
    },
    ops.token,
  );
  const taskId = submitted.body.data.taskId as string;
  await untilTaskFinal(svc.client, ops.token, taskId, 90_000, 200);
  await until('both attempts counted as drift', async () => {
    const res = await svc.client.get(PATHS.OPERATOR_COLLECTORS, ops.token);
    return res.body.data.collectors[0]?.outcomes.drift === 2;
  });

  const { page, problems } = await signIn(ops.apiKey);
  await page.getByTestId('nav-collectors').click();
  await page.waitForURL('**/operator/collectors');
  const alert = page.getByTestId('drifting');
  await alert.waitFor();
  const said = (await alert.textContent()) ?? '';
  t.match(said, /sandbox-web · any · —/, 'the drifting platform × region × account');
  t.match(said, /2 drift in the last hour/);
  t.match(said, /last success never/);
  t.match(said, /the platform returned no answer \(empty content\)/, 'and its signal');
  const row = page.locator('tr.drifting');
  t.equal(await row.count(), 1, 'its row is marked');
  t.match(await row.textContent(), /sandbox-web/);
  await page.getByTestId('chart-outcomes').locator('canvas').waitFor();
  const found = await snapBoth(page, 'collectors');
  for (const [width, list] of Object.entries(found)) t.same(list, [], `no overflow at ${width}`);
  t.same(problems, []);
  await page.context().close();
});
