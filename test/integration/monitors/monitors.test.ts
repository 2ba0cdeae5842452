/**
 * Monitors end to end, every role in one process over the real MongoDB-wire
 * server and the sandbox: CRUD with every problem in one 400 and 404 for
 * another user's monitor, a run now whose samples are their own sub tasks and
 * whose figures are snapshotted, trends and changes after two runs (one 400
 * naming each bad parameter, 404 for another user's monitor), one catch-up
 * run after downtime (an injected clock jumps hours ahead), and no double
 * start: two starters race for one slot, and a start cut off after its first
 * region is resumed by another node without submitting anything twice. Adaptive sampling on sandbox prompts
 * (`#vary:` makes answers vary): a stable cell stops at min, a varying one
 * gets follow-up rounds; a round cut off mid-submission is not repeated.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { brandsFor } from '../../../sandbox/answers.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { until } from '../../helpers/wait.js';
import { monitorModels, type MonitorDoc } from '../../../services/monitors/models.js';
import { MonitorStore } from '../../../services/monitors/store.js';
import { RunStarter, type SubmitCall } from '../../../services/monitors/runs.js';
import { runViewSchema, monitorViewSchema } from '../../../services/shared/contracts/monitors.js';
import { newTaskId } from '../../../services/shared/ids.js';
import { changesSchema, trendsSchema } from '../../../services/shared/contracts/monitor-trends.js';

/** Real time plus a jump the test sets: "the cluster was down for hours". */
let jumpMs = 0;
const clock = { now: () => Date.now() + jumpMs };

const sandbox = await startSandboxServer({ latencyMs: 5 });
t.teardown(() => sandbox.close());
const svc = await startEmbedded(
  t,
  { SERVICES: 'all', SANDBOX_URL: sandbox.url, CRAWLER_CAPACITY: '8' },
  clock,
);
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');
const M = '/api/business/monitor/monitors';
const PROMPT = 'best CRM for a small team';
const BRAND = brandsFor(PROMPT)[0]!.name;

const body = (extra: Record<string, unknown> = {}) => ({
  name: 'CRM daily',
  prompts: [PROMPT, { text: 'which project tool should we buy', tags: ['tools'] }],
  platforms: [{ platform: 'sandbox', mode: 'search' }],
  monitorKeywords: `${BRAND}, Nobody Inc`,
  samples: 2,
  schedule: { cron: '0 * * * *', timezone: 'UTC' },
  ...extra,
});

/** A fresh token for alice, issued at the clock's time. */
async function relogin() {
  const res = await svc.client.post('/api/business/auth/token', { apiKey: alice.apiKey });
  alice.token = res.body.data.accessToken as string;
}

const send = (method: string, path: string, token: string, payload?: unknown) =>
  svc.client.request(method, path, { token, body: payload });

t.test('CRUD: one 400 with every problem, paging, 404 for another user', async (t) => {
  const bad = await send('POST', M, alice.token, {
    name: ' ',
    prompts: [],
    platforms: [{ platform: 'sandbox', mode: 'nonsense' }],
    monitorKeywords: 'Acme',
    samples: { min: 5, max: 2, targetWidth: 0.2 },
    schedule: { cron: '61 * * * *', timezone: 'Mars/Olympus' },
    callbackUrl: 'http://127.0.0.1/hook',
    extra: 1,
  });
  t.equal(bad.status, 400);
  const fields = (bad.body.errors as { field: string }[]).map((e) => e.field).sort();
  for (const field of [
    'name',
    'prompts',
    'platforms[0].mode',
    'samples',
    'schedule.cron',
    'schedule.timezone',
    'callbackUrl',
    'body',
  ]) {
    t.ok(fields.includes(field), `${field} is reported`);
  }
  const db = await svc.db();
  t.equal(await db.collection('monitors').countDocuments(), 0, 'nothing stored');

  const created = [];
  for (const name of ['one', 'two', 'three']) {
    const res = await send('POST', M, alice.token, body({ name, enabled: false }));
    t.equal(res.status, 200, res.text);
    created.push(monitorViewSchema.parse(res.body.data));
  }
  t.equal(created[0]!.nextDueAt, null, 'a disabled monitor has no next run');
  const page = await svc.client.get(`${M}?page=2&size=2`, alice.token);
  t.equal(page.body.data.total, 3);
  t.strictSame(
    page.body.data.monitors.map((m: { name: string }) => m.name),
    ['one'],
    'newest first',
  );
  t.equal((await svc.client.get(`${M}?size=0`, alice.token)).status, 400);
  t.equal((await svc.client.get(M, bob.token)).body.data.total, 0);

  const id = created[1]!.monitorId;
  for (const [method, path] of [
    ['GET', `${M}/${id}`],
    ['PUT', `${M}/${id}`],
    ['DELETE', `${M}/${id}`],
    ['POST', `${M}/${id}/run`],
    ['GET', `${M}/${id}/runs`],
  ] as const) {
    const res = await send(method, path, bob.token, method === 'PUT' ? body() : undefined);
    t.equal(res.status, 404, `${method} of another user's monitor`);
  }
  t.equal((await svc.client.get(`${M}/not-a-uuid`, alice.token)).status, 400);

  const put = await send(
    'PUT',
    `${M}/${id}`,
    alice.token,
    body({ name: 'renamed', enabled: false }),
  );
  t.equal(put.status, 200, put.text);
  t.equal(put.body.data.name, 'renamed');
  t.equal((await send('DELETE', `${M}/${id}`, alice.token)).status, 200);
  t.equal((await svc.client.get(`${M}/${id}`, alice.token)).status, 404);
});

t.test('run now: samples are sub tasks of their own; the figures are kept', async (t) => {
  const created = await send('POST', M, alice.token, body({ enabled: false }));
  const id = created.body.data.monitorId as string;
  const started = await send('POST', `${M}/${id}/run`, alice.token);
  t.equal(started.status, 200, started.text);
  const taskId = started.body.data.regions[0].taskId as string;
  t.equal(started.body.data.regions[0].regionCode, null, 'no regions: one run without region');

  const finished = await until('the run to finish', async () => {
    const runs = (await svc.client.get(`${M}/${id}/runs`, alice.token)).body.data;
    return runs.runs[0]?.status === 'finished' && runs.runs[0];
  });
  const run = runViewSchema.parse(finished);
  t.equal(run.trigger, 'manual');
  const region = run.regions[0]!;
  t.equal(region.taskStatus, 'completed');
  t.equal(region.samplesTaken, 4, '2 prompts × 1 platform × 2 samples');
  const cell = region.cells!.find((c) => c.prompt === PROMPT)!;
  t.equal(cell.samplesTaken, 2);
  t.equal(cell.answered, 2);
  t.equal(cell.stability, 1, 'the sandbox answers a prompt the same way each time');
  t.strictSame(cell.brands[0]!.mentionRate.value, 1, `${BRAND} is named every time`);
  t.equal(cell.brands[0]!.mentionRate.n, 2);
  t.ok(cell.brands[0]!.mentionRate.lower < 1 && cell.brands[0]!.mentionRate.lower > 0.3);
  t.equal(cell.brands[1]!.mentionRate.value, 0);

  // The task is an ordinary one: the task routes read it, each sample its own sub task.
  const result = await svc.client.get(`/api/business/monitor/task/result/${taskId}`, alice.token);
  t.equal(result.status, 200);
  t.equal(result.body.data.subTaskList.length, 4);
  const stored = await (
    await svc.db()
  )
    .collection('subtasks')
    .find({ taskId }, { projection: { sample: 1, prompt: 1 } })
    .sort({ seq: 1 })
    .toArray();
  t.strictSame(
    stored.map((s) => s.sample),
    [0, 1, 0, 1],
  );
});

/** Runs the monitor now and waits for that run to finish. */
async function runToEnd(id: string): Promise<string> {
  const started = await send('POST', `${M}/${id}/run`, alice.token);
  const runId = started.body.data.runId as string;
  await until('the run to finish', async () => {
    const runs = (await svc.client.get(`${M}/${id}/runs`, alice.token)).body.data;
    return runs.runs.find((r: { runId: string }) => r.runId === runId)?.status === 'finished';
  });
  return runId;
}

t.test('trends and changes after two runs; 400 naming each bad parameter; 404', async (t) => {
  // Prompt 0 names Acme and not Umbrella; after the edit, prompt 0 names Umbrella and not Acme.
  const keywords = { monitorKeywords: `${BRAND}, Umbrella`, enabled: false };
  const created = await send('POST', M, alice.token, body(keywords));
  const id = created.body.data.monitorId as string;
  const first = await runToEnd(id);
  const edited = body({ ...keywords, prompts: ['best running shoes', body().prompts[1]] });
  t.equal((await send('PUT', `${M}/${id}`, alice.token, edited)).status, 200);
  const second = await runToEnd(id);

  const trends = trendsSchema.parse(
    (await svc.client.get(`${M}/${id}/trends`, alice.token)).body.data,
  );
  t.equal(trends.definitionsVersion, 3);
  t.equal(trends.groupBy, 'platform');
  const acme = trends.series.find((s) => s.group === 'sandbox' && s.keyword === BRAND)!;
  t.strictSame(
    acme.points.map((p) => [p.runId, p.mentionRate.value, p.mentionRate.n]),
    [
      [first, 1, 4],
      [second, 0.5, 4],
    ],
    'pooled over both prompts, oldest run first',
  );
  t.strictSame(acme.points[0]!.samples, { cells: 2, asked: 4, meanPerCell: 2 });
  const byTag = (await svc.client.get(`${M}/${id}/trends?groupBy=tag`, alice.token)).body.data;
  t.strictSame([...new Set(byTag.series.map((s: { group: string }) => s.group))], ['', 'tools']);
  const later = `${M}/${id}/trends?from=${new Date(trends.series[0]!.points[1]!.slot).toISOString()}`;
  t.equal((await svc.client.get(later, alice.token)).body.data.series[0].points.length, 1);

  const feed = changesSchema.parse(
    await until('the changes of the second run', async () => {
      const data = (await svc.client.get(`${M}/${id}/changes`, alice.token)).body.data;
      return data.changes.length > 0 && data;
    }),
  );
  const at = (kind: string, keyword: string) =>
    feed.changes.find((c) => c.kind === kind && c.keyword === keyword && c.scope.level === 'cell');
  t.match(at('brand_lost', BRAND), { runId: second, previousRunId: first, before: 1, after: 0 });
  t.match(at('competitor_appeared', 'Umbrella'), { scope: { prompt: 0, platform: 'sandbox' } });
  t.notOk(
    feed.changes.some((c) => c.runId === first),
    'the first run has nothing to compare with',
  );
  const lost = (await svc.client.get(`${M}/${id}/changes?kind=brand_lost&limit=1`, alice.token))
    .body.data.changes;
  t.strictSame(
    lost.map((c: { kind: string }) => c.kind),
    ['brand_lost'],
  );

  const badTrends = await svc.client.get(
    `${M}/${id}/trends?from=yesterday&groupBy=country`,
    alice.token,
  );
  t.equal(badTrends.status, 400);
  t.strictSame(badTrends.body.errors.map((e: { field: string }) => e.field).sort(), [
    'from',
    'groupBy',
  ]);
  const badChanges = await svc.client.get(
    `${M}/${id}/changes?limit=0&kind=nope&to=tomorrow`,
    alice.token,
  );
  t.equal(badChanges.status, 400);
  t.strictSame(badChanges.body.errors.map((e: { field: string }) => e.field).sort(), [
    'kind',
    'limit',
    'to',
  ]);
  for (const path of ['trends', 'changes']) {
    t.equal((await svc.client.get(`${M}/${id}/${path}`, bob.token)).status, 404, `${path} of bob`);
  }
});

t.test('after downtime a monitor runs once, then on its next slot', async (t) => {
  const created = await send('POST', M, alice.token, body({ name: 'hourly' }));
  const id = created.body.data.monitorId as string;
  const firstSlot = created.body.data.nextDueAt as number;
  // Down for five hours and a bit: five slots passed (and the access token expired).
  jumpMs += 5 * 3_600_000 + 60_000;
  await relogin();
  const runs = await until('the catch-up run', async () => {
    const data = (await svc.client.get(`${M}/${id}/runs`, alice.token)).body.data;
    return data.total > 0 && data;
  });
  // The run is created before the slot moves on (a node dying in between leaves a due monitor).
  const monitor = await until('the next slot', async () => {
    const data = (await svc.client.get(`${M}/${id}`, alice.token)).body.data;
    return data.nextDueAt > clock.now() && data;
  });
  const now = clock.now();
  t.ok(monitor.nextDueAt > now && monitor.nextDueAt <= now + 3_600_000, 'the next hour after now');
  t.equal(monitor.nextDueAt % 3_600_000, 0, 'on the hour');
  // Several more ticks: still one run, for the first missed slot.
  await new Promise((r) => setTimeout(r, 2_500));
  const again = (await svc.client.get(`${M}/${id}/runs`, alice.token)).body.data;
  t.equal(again.total, 1, 'one run, not one per missed slot');
  t.equal(runs.runs[0].trigger, 'schedule');
  t.equal(runs.runs[0].slot, firstSlot);
  // Back to a calm cluster for the next test: no run of this monitor left starting.
  await send('PUT', `${M}/${id}`, alice.token, body({ name: 'hourly', enabled: false }));
  await until('the run to finish', async () => {
    const data = (await svc.client.get(`${M}/${id}/runs`, alice.token)).body.data;
    return data.runs[0].status === 'finished';
  });
});

t.test('two nodes never start one run; a cut-off start resumes without repeats', async (t) => {
  const store = new MonitorStore(monitorModels(await svc.db()));
  const created = await send('POST', M, alice.token, body({ name: 'races', enabled: false }));
  const monitor = {
    ...(await (
      await svc.db()
    )
      .collection('monitors')
      .findOne({ _id: created.body.data.monitorId })),
  } as unknown as MonitorDoc;
  const submitted: string[] = [];
  const submit = async (call: SubmitCall) => {
    submitted.push(call.taskId);
    return svc.broker.call('tasks.submit', call);
  };
  const warnings: unknown[] = [];
  const starter = (holder: string, s = submit, claimMs = 500) =>
    new RunStarter({ store, submit: s, holder, claimMs, warn: (_m, e) => warnings.push(e) });

  // Two nodes, one slot: exactly one creates the run.
  const slot = clock.now() - 1_000;
  const [a, b] = await Promise.all([
    starter('node-a').create(monitor, 'schedule', slot, clock.now()),
    starter('node-b').create(monitor, 'schedule', slot, clock.now()),
  ]);
  t.equal([a, b].filter((r) => r !== null).length, 1, 'one of the two created it');

  // One batch (the monitors due in one tick) over that slot, taken, and a new one: only the new run.
  const batch = await starter('node-b').createMany(
    [slot, slot + 2].map((s) => ({ monitor, trigger: 'schedule' as const, slot: s })),
    clock.now(),
  );
  t.strictSame(
    batch.map((r) => r.slot),
    [slot + 2],
    'the taken slot left out',
  );
  const batched = await store.run(batch[0]!._id);
  t.equal(batched.status, 'running', 'submitted and marked in the batch');
  t.ok(batched.regions.every((r) => r.submitted && r.error === null));
  t.equal(batched.startToken, null, 'its claim freed');

  // A node that submits its region's task and dies before marking it submitted.
  let calls = 0;
  const dying = async (call: SubmitCall) => {
    calls++;
    if (calls === 1) await submit(call);
    throw new Error('node lost');
  };
  // Its claim is an hour long, and node-d resumes at a time past it: the service's own tick
  // (every second, on the real time) resumes stalled starts too, and with a claim that lapsed on
  // the real time it took this one first on a crowded machine, leaving node-d nothing to resume.
  const HOUR = 3_600_000;
  const cut = await starter('node-c', dying, HOUR).create(
    monitor,
    'schedule',
    slot + 1,
    clock.now(),
  );
  t.ok(cut);
  t.equal((await store.run(cut!._id)).status, 'starting', 'left starting, under its claim');
  t.equal(await starter('node-d').resumeStalled(clock.now()), 0, 'not before the claim lapses');
  t.ok(
    (await starter('node-d').resumeStalled(clock.now() + HOUR + 1)) > 0,
    'resumed once the claim lapsed',
  );
  const run = await store.run(cut!._id);
  t.equal(run.status, 'running');
  t.ok(run.regions[0]!.submitted);
  t.equal(run.regions[0]!.error, null);
  const tasks = await (
    await svc.db()
  )
    .collection('tasks')
    .countDocuments({ _id: { $in: run.regions.map((r) => r.taskId) } as never });
  t.equal(tasks, 1, 'one task: the resubmission answered 409');
  t.equal(submitted.filter((id) => id === run.regions[0]!.taskId).length, 2, 'sent twice');
});

t.test('adaptive sampling: a stable cell stops at min, a varying one asks more', async (t) => {
  // A prompt whose answers name the monitored brand in about half the asks (sandbox `#vary:`).
  const varying = Array.from({ length: 50 }, (_, i) => `which CRM varies ${i}`).find(
    (text) => brandsFor(text)[0]!.name === BRAND,
  )!;
  const samples = { min: 5, max: 12, targetWidth: 0.45 };
  const created = await send(
    'POST',
    M,
    alice.token,
    body({ name: 'adaptive', enabled: false, prompts: [PROMPT, `${varying} #vary:50`], samples }),
  );
  t.equal(created.status, 200, created.text);
  const id = created.body.data.monitorId as string;
  t.equal((await send('POST', `${M}/${id}/run`, alice.token)).status, 200);
  const run = runViewSchema.parse(
    await until('the adaptive run to finish', async () => {
      const runs = (await svc.client.get(`${M}/${id}/runs`, alice.token)).body.data;
      return runs.runs[0]?.status === 'finished' && runs.runs[0];
    }),
  );
  const region = run.regions[0]!;
  const [stable, varied] = region.cells!;
  // Unanimous at 5: Wilson width 3.84 / 8.84 = 0.43, under the target.
  t.equal(stable!.samplesTaken, 5, 'the stable cell stops at min');
  t.equal(stable!.callsSaved, 7);
  t.equal(stable!.targetWidth, 0.45);
  t.ok(stable!.width! < 0.45);
  t.ok(varied!.samplesTaken > 5, `the varying cell asks more: ${varied!.samplesTaken}`);
  t.ok(varied!.samplesTaken === 12 || varied!.width! <= 0.45, 'until the target width or max');
  const rate = varied!.brands[0]!.mentionRate;
  t.ok(rate.value > 0 && rate.value < 1, `its answers vary: ${rate.value}`);
  t.ok(region.followUps.length >= 1);
  t.strictSame(
    region.followUps.map((f) => [f.cells, f.submitted, f.error]),
    region.followUps.map(() => [1, true, null]),
    'each follow-up asks only the varying cell',
  );
  t.equal(region.samplesTaken, 5 + varied!.samplesTaken);
  t.equal(run.samplesTaken, region.samplesTaken);
  t.equal(run.samplesSaved, 24 - region.samplesTaken!, 'saved against 2 cells × max 12');

  // Trends read the pools stored with the region: pooled from the cells of every round.
  const trends = trendsSchema.parse(
    (await svc.client.get(`${M}/${id}/trends`, alice.token)).body.data,
  );
  const [point] = trends.series.find((s) => s.keyword === BRAND)!.points;
  t.match(point, {
    runId: run.runId,
    samples: { cells: 2, asked: region.samplesTaken },
    mentionRate: { n: stable!.answered + varied!.answered },
  });
  // Its changes were detected when it finished (the first run: nothing to compare with).
  const doc = await (await svc.db()).collection('monitorRuns').findOne({ _id: run.runId as never });
  t.ok(doc?.changesDetectedAt, 'change detection ran when the run finished');

  // The follow-up is an ordinary task: the task routes read it.
  const followUp = region.followUps[0]!;
  const result = await svc.client.get(
    `/api/business/monitor/task/result/${followUp.taskId}`,
    alice.token,
  );
  t.equal(result.status, 200);
  t.equal(result.body.data.subTaskList.length, followUp.samples);
});

t.test('a follow-up round cut off mid-submission resumes without a repeat', async (t) => {
  const db = await svc.db();
  const store = new MonitorStore(monitorModels(db));
  const created = await send('POST', M, alice.token, body({ name: 'rounds', enabled: false }));
  const monitor = (await db
    .collection('monitors')
    .findOne({ _id: created.body.data.monitorId })) as unknown as MonitorDoc;
  const submit = (call: SubmitCall) => svc.broker.call('tasks.submit', call);
  const starter = (holder: string, s: (call: SubmitCall) => Promise<unknown> = submit) =>
    new RunStarter({ store, submit: s, holder, claimMs: 500, warn: () => undefined });
  const run = (await starter('node-e').create(monitor, 'manual', clock.now(), clock.now()))!;
  const taskId = newTaskId();
  const grid = { prompts: [0], platforms: [0], samples: 1 };
  const round = { ...grid, round: 1, taskId, submitted: false, error: null };
  t.ok(await store.addRound(run._id, 0, 0, [round]), 'the round is stored with its task id');
  t.notOk(await store.addRound(run._id, 0, 0, [round]), 'a second planner stores nothing');

  // The holder submits the task and dies before marking it.
  const dying = async (call: SubmitCall) => {
    await submit(call);
    throw new Error('node lost');
  };
  await starter('node-f', dying).submitFollowUps(run._id, clock.now());
  const held = await store.run(run._id);
  t.notOk(held.regions[0]!.followUps[0]!.submitted, 'left unmarked, under its claim');
  t.ok(held.startToken, 'the claim is held');
  // The leader's sweep (or any node) takes it once the claim lapses; the resubmission is a 409.
  const resumed = await until('the round to be resumed', async () => {
    await starter('node-g').submitFollowUps(run._id, clock.now());
    const doc = await store.run(run._id);
    return doc.regions[0]!.followUps[0]!.submitted && doc;
  });
  t.equal(resumed.regions[0]!.followUps[0]!.error, null, '409 counts as submitted');
  t.equal(resumed.startToken, null, 'the claim is freed');
  t.equal(await db.collection('tasks').countDocuments({ _id: taskId } as never), 1, 'one task');
});
