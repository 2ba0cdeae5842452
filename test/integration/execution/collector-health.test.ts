/**
 * Collector health end to end: web sub tasks on the sandbox's web site (a
 * real page in real Chromium) answer, meet a login wall and drift (the page
 * gives the driver nothing to read); the operator route then counts each
 * outcome with the failure messages of the last hour, and `/metrics` carries
 * the same totals as `aimon_web_outcomes_total`. Non-operators get 403, bad
 * filters 400 with every problem.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import {
  collectorsDataSchema,
  envelopeOf,
  errorEnvelopeSchema,
} from '../../../services/shared/contracts/http.js';
import { PATHS } from '../../../services/shared/contracts/http-paths.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { until } from '../../helpers/wait.js';

const sandbox = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => sandbox.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  // Room for a cold Chromium on a busy machine.
  SANDBOX_TIMEOUT_MS: '15000',
  // A cold Chromium may miss a deadline on a loaded machine: that attempt is retried (and counted).
  MAX_ATTEMPTS: '3',
  RETRY_BASE_MS: '50',
  RETRY_MAX_MS: '100',
  CRAWLER_CAPACITY: '3',
  METRICS_CACHE_MS: '0',
});
const customer = await svc.newUser('customer');
const ops = await svc.newUser('ops');
await svc.broker.call('users.setRole', { userId: ops.userId, role: 'operator' });

const PROMPTS = {
  answer: 'plain question',
  wall: 'walled #fail:login',
  drift: 'blank #fail:empty',
};

t.test('answers, walls and drift are counted per platform × region × account', async (t) => {
  const submitted = await svc.client.post(
    '/api/business/monitor/task/batch/shared',
    {
      prompts: Object.values(PROMPTS),
      platforms: [{ platform: 'sandbox-web', mode: 'standard' }],
    },
    customer.token,
  );
  t.equal(submitted.status, 200, submitted.text);
  const taskId = submitted.body.data.taskId as string;
  const final = await untilTaskFinal(svc.client, customer.token, taskId, 90_000, 200);
  t.equal(final.body.data.status, 'partial_completed');

  const res = await until('the final attempts counted', async () => {
    const r = await svc.client.get(PATHS.OPERATOR_COLLECTORS, ops.token);
    const outcomes = r.body.data?.collectors?.[0]?.outcomes;
    return outcomes?.answered + outcomes?.login_wall + outcomes?.drift === 3 ? r : false;
  });
  t.equal(res.status, 200, res.text);
  const data = envelopeOf(collectorsDataSchema).parse(res.body).data;
  t.equal(data.recentMinutes, 60);
  t.equal(data.collectors.length, 1, 'one platform × region × account');
  const row = data.collectors[0]!;
  t.match(row, {
    platform: 'sandbox-web',
    regionCode: null,
    accountId: null,
    answered: 1,
    drifting: false,
  });
  // Retried attempts (a missed deadline: timeout; a browser hiccup: error) count as well.
  const retried = row.outcomes.timeout + row.outcomes.error;
  t.same(row.outcomes, {
    answered: 1,
    login_wall: 1,
    captcha: 0,
    rate_limited: 0,
    drift: 1,
    refused: 0,
    timeout: row.outcomes.timeout,
    error: row.outcomes.error,
  });
  t.equal(row.tried, 3 + retried, 'every attempt tried');
  t.same(row.recent.outcomes, row.outcomes, 'all of them in the last hour');
  t.ok(row.lastSuccessAt !== null && row.lastSuccessAt <= data.generatedAt, 'the last success');
  t.ok(row.lastAttemptAt >= row.lastSuccessAt!);
  t.same(
    row.recent.signals
      .filter((s) => s.outcome === 'drift' || s.outcome === 'login_wall')
      .map((s) => [s.outcome, s.signal, s.count])
      .sort(),
    [
      ['drift', 'the platform returned no answer (empty content)', 1],
      ['login_wall', 'login wall: the platform asks to log in', 1],
    ],
    'the failure messages, as the drivers named them',
  );
  t.match(row.lastFailure, { message: /./ });

  const only = await svc.client.get(`${PATHS.OPERATOR_COLLECTORS}?platform=sandbox-web`, ops.token);
  t.equal(only.body.data.collectors.length, 1, 'filtered by platform');
  const elsewhere = await svc.client.get(
    `${PATHS.OPERATOR_COLLECTORS}?regionCode=310100`,
    ops.token,
  );
  t.same(elsewhere.body.data.collectors, [], 'no attempt in that region');

  const metrics = await (await fetch(`${svc.client.baseUrl}${PATHS.METRICS}`)).text();
  t.match(metrics, '# TYPE aimon_web_outcomes_total counter');
  for (const [outcome, count] of [
    ['answered', 1],
    ['login_wall', 1],
    ['drift', 1],
  ] as const) {
    t.match(
      metrics,
      `aimon_web_outcomes_total{platform="sandbox-web",region="any",outcome="${outcome}"} ${count}\n`,
      `${outcome} on /metrics`,
    );
  }
  t.notMatch(metrics, /aimon_web_outcomes_total\{platform="sandbox-web"[^}]*outcome="captcha"/);
});

t.test('operators only; bad filters are 400 with every problem', async (t) => {
  const refused = await svc.client.get(PATHS.OPERATOR_COLLECTORS, customer.token);
  t.equal(refused.status, 403);
  t.match(refused.body, { success: false, code: 403, message: /operator role required/ });

  const bad = await svc.client.get(
    `${PATHS.OPERATOR_COLLECTORS}?platform=claude&regionCode=shanghai`,
    ops.token,
  );
  t.equal(bad.status, 400, bad.text);
  const errors = errorEnvelopeSchema.parse(bad.body).errors ?? [];
  t.same(
    errors.map((e) => e.field),
    ['platform', 'regionCode'],
    'a platform without a web channel and a region that is no code, both listed',
  );
  t.match(errors[0]!.message, /must be a platform with a web channel: .*sandbox-web/);
  const twice = await svc.client.get(
    `${PATHS.OPERATOR_COLLECTORS}?regionCode=310100&regionCode=310000`,
    ops.token,
  );
  t.equal(twice.status, 400, 'a filter given twice');
});
