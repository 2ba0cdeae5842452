/**
 * A monitor's discovered brands (issue 36) end to end, every role in one
 * process over the real MongoDB-wire server, the sandbox and a real webhook
 * receiver: the trends follow the brands nobody watched with their Wilson
 * share per run and carry the newest run's insights; a brand new to the
 * monitor is a change and goes out in the monitor.changes alert;
 * `POST …/watch` (and a PUT) makes it a group, with every problem in one 400,
 * 404 for an unknown or another user's monitor and a repeat that changes
 * nothing; and the next run measures it like any group.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { brandsFor } from '../../../sandbox/answers.js';
import { startReceiver } from '../../../bench/webhook-receiver.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { until } from '../../helpers/wait.js';
import { changesSchema, trendsSchema } from '../../../services/shared/contracts/monitor-trends.js';
import { runListSchema, watchResultSchema } from '../../../services/shared/contracts/monitors.js';
import { newTaskId } from '../../../services/shared/ids.js';

const sandbox = await startSandboxServer({ latencyMs: 5 });
const receiver = await startReceiver();
t.teardown(async () => {
  await receiver.close();
  await sandbox.close();
});
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '8',
  CALLBACK_POLL_MS: '20',
  CALLBACK_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
});
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');
const M = '/api/business/monitor/monitors';
const CRM = 'best CRM for a small team';
const SHOES = 'best running shoes';
const names = (prompt: string) => brandsFor(prompt).map((b) => b.name);

const send = (method: string, path: string, token: string, payload?: unknown) =>
  svc.client.request(method, path, { token, body: payload });

const body = (prompts: string[], monitorKeywords = 'Acme') => ({
  name: 'CRM discovered',
  prompts,
  platforms: [{ platform: 'sandbox', mode: 'search' }],
  monitorKeywords,
  samples: 2,
  schedule: { cron: '0 * * * *', timezone: 'UTC' },
  callbackUrl: receiver.plan('/alert', []),
  enabled: false,
});

async function runToEnd(id: string): Promise<string> {
  const started = await send('POST', `${M}/${id}/run`, alice.token);
  const runId = started.body.data.runId as string;
  await until('the run to finish', async () => {
    const runs = (await svc.client.get(`${M}/${id}/runs`, alice.token)).body.data;
    return runs.runs.find((r: { runId: string }) => r.runId === runId)?.status === 'finished';
  });
  return runId;
}

const trendsOf = async (id: string) =>
  trendsSchema.parse((await svc.client.get(`${M}/${id}/trends`, alice.token)).body.data);

t.test('discovered brands over runs, their changes and alert, watching one', async (t) => {
  t.strictSame(names(CRM), ['Acme', 'Initech', 'Hooli'], 'the sandbox as this test reads it');
  t.strictSame(names(SHOES), ['Umbrella', 'Stark Industries', 'Globex']);
  const created = await send('POST', M, alice.token, body([CRM]));
  t.equal(created.status, 200, created.text);
  const id = created.body.data.monitorId as string;

  const first = await runToEnd(id);
  let trends = await trendsOf(id);
  t.strictSame(
    trends.discovered.map((s) => [s.group, s.name, s.watched, s.answers]),
    [
      ['sandbox', 'Initech', false, 2],
      ['sandbox', 'Hooli', false, 2],
    ],
    'the brands the CRM answers recommend besides Acme',
  );
  t.match(trends.discovered[0]!.points, [
    { runId: first, share: { value: 1, n: 2 }, position: { mean: 2, n: 2 } },
  ]);
  t.ok(trends.discovered[0]!.points[0]!.share.lower! < 0.5, 'the Wilson interval of 2/2');
  t.match(trends.insights, {
    runId: first,
    discovered: [
      { name: 'Initech', answers: 2, share: 1, bestPosition: 2 },
      { name: 'Hooli', answers: 2, share: 1, bestPosition: 3 },
    ],
    opportunities: [],
  });

  // The second run also asks about running shoes: three brands no earlier run named.
  t.equal((await send('PUT', `${M}/${id}`, alice.token, body([CRM, SHOES]))).status, 200);
  const second = await runToEnd(id);
  trends = await trendsOf(id);
  const stark = trends.discovered.find((s) => s.name === 'Stark Industries')!;
  t.strictSame(
    stark.points.map((p) => [p.runId, p.share.value, p.share.n]),
    [
      [first, 0, 2],
      [second, 0.5, 4],
    ],
    'a point at 0 in the run before it appeared',
  );
  t.equal(trends.insights?.runId, second, "the newest run's insights");
  t.ok(trends.insights!.opportunities.length > 0, 'the shoe answers cite sources without Acme');
  t.match(
    trends.insights!.opportunities[0],
    { answers: 2, userAnswers: 2, competitors: ['Globex', 'Stark Industries', 'Umbrella'] },
    'cited by both shoe answers, and by both CRM answers that name Acme (the contrast)',
  );

  const feed = changesSchema.parse(
    await until('the changes of the second run', async () => {
      const data = (await svc.client.get(`${M}/${id}/changes?kind=discovered_new`, alice.token))
        .body.data;
      return data.changes.length > 0 && data;
    }),
  );
  t.strictSame(
    feed.changes.map((c) => [c.keyword, c.runId, c.before, c.after, c.scope.level]).sort(),
    [
      ['Globex', second, 0, 0.5, 'run'],
      ['Stark Industries', second, 0, 0.5, 'run'],
      ['Umbrella', second, 0, 0.5, 'run'],
    ],
    'new to the monitor, over the whole run; the first run set the baseline',
  );
  const alert = await until('the alert', async () =>
    receiver
      .requestsTo('/alert')
      .map((r) => JSON.parse(r.body) as { runId: string; changes: { kind: string }[] })
      .find((b) => b.runId === second),
  );
  t.ok(
    alert.changes.some((c) => c.kind === 'discovered_new'),
    'the alert carries the new brands (monitor.changes)',
  );
  t.equal(
    receiver.requestsTo('/alert').find((r) => JSON.parse(r.body).runId === second)!.headers[
      'x-aimon-event'
    ],
    'monitor.changes',
  );

  // Watching: every problem in one 400, before the monitor is looked up.
  const watchPath = `${M}/${id}/watch`;
  const bad = await send('POST', watchPath, alice.token, { name: 'Acme, Inc.\n', extra: 1 });
  t.equal(bad.status, 400);
  t.strictSame(
    bad.body.errors.map((e: { field: string }) => e.field).sort(),
    ['body', 'name', 'name'],
    'a separator, a line break and an unknown field',
  );
  const missing = await send('POST', `${M}/${newTaskId()}/watch`, alice.token, { name: ' ' });
  t.equal(missing.status, 400, 'a blank name is a 400 whatever the monitor');
  t.equal((await send('POST', `${M}/nope/watch`, alice.token, { name: 'X' })).status, 400);
  const unknown = await send('POST', `${M}/${newTaskId()}/watch`, alice.token, { name: 'X' });
  t.equal(unknown.status, 404, 'an unknown monitor');
  t.equal((await send('POST', watchPath, bob.token, { name: 'X' })).status, 404, "bob's 404");

  const watched = await send('POST', watchPath, alice.token, { name: 'Stark Industries' });
  t.equal(watched.status, 200, watched.text);
  t.equal(watched.body.message, 'brand watched');
  t.match(watchResultSchema.parse(watched.body.data), {
    added: true,
    keyword: 'Stark Industries',
    monitor: { monitorKeywords: 'Acme, Stark Industries' },
  });
  const again = await send('POST', watchPath, alice.token, { name: 'stark-industries' });
  t.equal(again.status, 200);
  t.equal(again.body.message, 'already watched');
  t.match(again.body.data, { added: false, keyword: 'Stark Industries' });
  // A PUT of the monitor watches too.
  const put = await send('PUT', `${M}/${id}`, alice.token, {
    ...body([CRM, SHOES]),
    monitorKeywords: `${watched.body.data.monitor.monitorKeywords as string}, Umbrella`,
  });
  t.equal(put.status, 200, put.text);
  trends = await trendsOf(id);
  t.strictSame(
    trends.discovered
      .filter((s) => s.watched)
      .map((s) => s.name)
      .sort(),
    ['Stark Industries', 'Umbrella'],
    'marked watched from now on',
  );

  // The next run measures them like any group.
  const third = await runToEnd(id);
  trends = await trendsOf(id);
  for (const brand of ['Stark Industries', 'Umbrella']) {
    const series = trends.series.find((s) => s.keyword === brand);
    t.match(
      series?.points,
      [{ runId: third, mentionRate: { value: 0.5, n: 4 } }],
      `${brand}: a group's series from the run after it was watched`,
    );
    t.strictSame(
      trends.discovered.find((s) => s.name === brand)!.points.map((p) => p.runId),
      [first, second],
      `${brand}: no discovered point in the run that watched it`,
    );
  }
  const runs = runListSchema.parse(
    (await svc.client.get(`${M}/${id}/runs`, alice.token)).body.data,
  );
  const cell = runs.runs[0]!.regions[0]!.cells!.find((c) => c.prompt === SHOES)!;
  t.strictSame(
    cell.brands.map((b) => [b.keyword, b.mentionRate.value]),
    [
      ['Acme', 0],
      ['Stark Industries', 1],
      ['Umbrella', 1],
    ],
  );
  t.notOk(
    (
      await svc.client.get(`${M}/${id}/changes?kind=discovered_new`, alice.token)
    ).body.data.changes.some((c: { runId: string }) => c.runId === third),
    'a watched brand is no discovery',
  );
});
