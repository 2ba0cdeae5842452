/**
 * Every route the api serves is in the OpenAPI document, and every documented
 * operation is served: both sides take their paths from the one table
 * (services/shared/contracts/http-paths.ts), and this compares what the
 * routers registered with what the document lists, method by method.
 */
import t from 'tap';
import type { Router } from '@koa/router';
import { Registry } from 'prom-client';
import { createApp } from '../../../services/api/app.js';
import { buildOpenApi } from '../../../services/api/openapi.js';
import { ProgressHub } from '../../../services/api/progress/progress-hub.js';
import { dashboardRoutes } from '../../../services/api/routes/dashboard.js';
import { StatusCache } from '../../../services/api/status-cache.js';
import { systemClock } from '../../../services/shared/clock.js';
import { loadConfig } from '../../../services/shared/config.js';
import {
  matchesPath,
  openApiPath,
  PATHS,
  pathTo,
} from '../../../services/shared/contracts/http-paths.js';

/** Listing the routes calls none of them: any call is a failure of this test. */
const notCalled = (): never => {
  throw new Error('a route ran while the routes were only listed');
};

const progress = new ProgressHub({
  read: notCalled,
  maxPerUser: 1,
  heartbeatMs: 60_000,
  refreshMs: 60_000,
  warn: notCalled,
});
t.teardown(() => progress.close());

const app = createApp({
  config: loadConfig({}),
  screenshot: notCalled,
  evidence: { withEvidence: notCalled, latestOf: notCalled },
  evidenceKeys: { signingKey: notCalled, publicSet: notCalled },
  backend: { call: notCalled },
  clock: systemClock,
  logger: { warn: notCalled, error: notCalled },
  verifier: notCalled,
  statusCache: new StatusCache({ maxAgeMs: 1, maxBytes: 1, clock: systemClock }),
  progress,
  ready: notCalled,
  crawlerStates: notCalled,
  metrics: new Registry(),
});

/** `GET /api/business/task/list`, … for every route layer of these routers. */
function operations(routers: readonly Router[]): string[] {
  return routers.flatMap((router) =>
    router.stack
      .filter((layer) => layer.methods.length > 0)
      .flatMap((layer) =>
        layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`),
      ),
  );
}

const routers = app.middleware
  .map((mw) => (mw as { router?: Router }).router)
  .filter((r): r is Router => r !== undefined);
const dashboard = new Set(operations([dashboardRoutes()]));
/** The api's own routes: everything but the dashboard's pages and files. */
const api = operations(routers).filter((op) => !dashboard.has(op));
const pathOf = (op: string) => op.split(' ')[1]!;
/** Swagger UI's own files are part of the docs page, not of the API it documents. */
const served = api.filter((op) => op !== `GET ${PATHS.DOCS_ASSET}`);

const doc = buildOpenApi('0.0.0', '/') as {
  paths: Record<string, Record<string, unknown>>;
};
const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
);

t.test('every served operation is documented, and every documented one is served', async (t) => {
  const servedInDocForm = served.map((op) => `${op.split(' ')[0]} ${openApiPath(pathOf(op))}`);
  t.strictSame([...new Set(servedInDocForm)].sort(), [...documented].sort());
  t.equal(new Set(servedInDocForm).size, servedInDocForm.length, 'no route registered twice');
});

t.test('every route is registered from the paths table', async (t) => {
  const table = new Set<string>(Object.values(PATHS));
  const registered = new Set(api.map(pathOf));
  t.strictSame(
    [...registered].filter((path) => !table.has(path)),
    [],
    'no path outside it',
  );
  t.strictSame(
    [...table].filter((path) => !registered.has(path)),
    [],
    'each of it is served',
  );
});

t.test('paths in OpenAPI form and filled in for clients', async (t) => {
  t.equal(
    openApiPath(PATHS.SUBTASK_RAW),
    '/api/business/monitor/task/result/{taskId}/{subTaskId}/raw',
  );
  t.equal(openApiPath(PATHS.TASK_LIST), PATHS.TASK_LIST, 'a path without parameters is itself');
  t.equal(
    pathTo(PATHS.SUBTASK_RESULT, { taskId: 'T 1', subTaskId: 'a/b' }),
    '/api/business/monitor/task/result/T%201/a%2Fb',
    'values are encoded, so one cannot reach another route',
  );
  t.ok(matchesPath(PATHS.TASK_EVENTS, '/api/business/monitor/task/abc/events'));
  t.notOk(matchesPath(PATHS.TASK_EVENTS, '/api/business/monitor/task//events'), 'empty value');
  t.notOk(matchesPath(PATHS.TASK_EVENTS, '/api/business/monitor/task/a/b/events'));
  t.notOk(matchesPath(PATHS.TASK_EVENTS, '/api/business/monitor/task/abc/events/x'));
});
