/**
 * The dashboard's routes on their own (app.callback() on port 0, a build in a
 * temporary folder): what is served with which headers, what is refused.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Koa from 'koa';
import t from 'tap';
import { DASHBOARD_CSP, dashboardRoutes } from '../../../services/api/routes/dashboard.js';
import { errorEnvelope } from '../../../services/api/middleware/errors.js';
import { builtEntry, ROOT } from '../../../infra/processes.js';

async function serve(dir: string) {
  const app = new Koa();
  app.use(errorEnvelope({ error: () => undefined, warn: () => undefined }));
  app.use(dashboardRoutes(dir).routes());
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return (path: string) => fetch(base + path);
}

const dir = await mkdtemp(join(tmpdir(), 'dashboard-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
await mkdir(join(dir, 'assets'));
await writeFile(join(dir, 'index.html'), '<!doctype html><title>app</title>');
await writeFile(join(dir, 'assets/index-abc123.js'), 'console.log(1)');
await writeFile(join(dir, 'secret.txt'), 'not an asset');

t.test('index.html for / and client routes; hashed assets for good', async (t) => {
  const get = await serve(dir);
  for (const path of ['/', '/signin', '/new', '/operator', '/tasks/x', '/tasks/x/answer/y']) {
    const res = await get(path);
    t.equal(res.status, 200, path);
    t.equal(await res.text(), '<!doctype html><title>app</title>');
    t.equal(res.headers.get('content-security-policy'), DASHBOARD_CSP);
    t.equal(res.headers.get('cache-control'), 'no-cache');
  }
  const js = await get('/assets/index-abc123.js');
  t.equal(js.status, 200);
  t.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.equal(js.headers.get('x-content-type-options'), 'nosniff');
});

t.test('nothing else: other paths, other files, unknown types', async (t) => {
  const get = await serve(dir);
  for (const path of [
    '/tasks',
    '/tasks/x/other',
    '/index.html',
    '/secret.txt',
    '/assets/..%2Fsecret.txt',
    '/assets/..%2Findex.html',
    '/assets/missing.js',
    '/assets/index-abc123.exe',
  ]) {
    const res = await get(path);
    t.equal(res.status, 404, path);
    t.match(await res.json(), { success: false, code: 404 });
  }
});

t.test('without a build, / says how to make one', async (t) => {
  const get = await serve(join(dir, 'nothing'));
  const res = await get('/');
  t.equal(res.status, 404);
  t.match(await res.json(), { code: 404, message: /not built: run npm run build/ });
});

t.test(
  'the built server finds the dashboard build at the root, not inside var/build',
  async (t) => {
    const sources = await import('../../../services/api/routes/dashboard.js');
    const built = (await import(
      pathToFileURL(builtEntry('services/api/routes/dashboard.ts')).href
    )) as typeof sources;
    t.equal(sources.DASHBOARD_DIR, join(ROOT, 'var/web/'));
    t.equal(built.DASHBOARD_DIR, sources.DASHBOARD_DIR);
  },
);
