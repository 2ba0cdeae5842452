/**
 * Completion callbacks end to end in one process: real tasks run on the
 * sandbox platform, a real receiver on 127.0.0.1 fails on purpose, and the
 * deliveries follow a scaled-down schedule.
 */
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import {
  callbackDeliveryDataSchema,
  callbackSettingsDataSchema,
  envelopeOf,
} from '../../../services/shared/contracts/http.js';
import { callbackPayloadSchema } from '../../../services/api/openapi-callbacks.js';
import { monitorDigestPayloadSchema } from '../../../services/shared/contracts/monitor-deliveries.js';
import { callbacksService } from '../../../services/callbacks/callbacks.service.js';
import { deliveryModel } from '../../../services/callbacks/models.js';
import { DeliveryStore } from '../../../services/callbacks/store.js';
import { newWebhookSecret, verifyWebhook } from '../../../services/shared/webhooks/sign.js';
import { Digests } from '../../../services/monitors/digest/digests.js';
import { monitorModels } from '../../../services/monitors/models.js';
import { nextDue } from '../../../services/monitors/schedule.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { freePort, startReceiver, type Received } from '../../../bench/webhook-receiver.js';
import { until } from '../../helpers/wait.js';

const DELAYS = [150, 300, 450, 600, 750, 900, 1050];
const READ_TIMEOUT_MS = 300;
const M = '/api/business/monitor';

const sandbox = await startSandboxServer({ latencyMs: 20 });
const receiver = await startReceiver({ slowMs: READ_TIMEOUT_MS + 400 });
t.teardown(async () => {
  await receiver.close();
  await sandbox.close();
});
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '8',
  CALLBACK_RETRY_DELAYS_MS: DELAYS.join(','),
  CALLBACK_CONNECT_TIMEOUT_MS: '500',
  CALLBACK_READ_TIMEOUT_MS: String(READ_TIMEOUT_MS),
  CALLBACK_POLL_MS: '20',
  CALLBACK_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
});
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');

type Delivery = ReturnType<typeof callbackDeliveryDataSchema.parse>;

async function submit(token: string, callbackUrl?: string, prompts = ['one', 'two']) {
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    { prompts, platforms: [{ platform: 'sandbox', mode: 'search' }], callbackUrl },
    token,
  );
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data.taskId as string;
}

async function delivery(taskId: string, token = alice.token): Promise<Delivery> {
  const res = await svc.client.get(`${M}/task/${taskId}/callbacks`, token);
  if (res.status !== 200) throw new Error(res.text);
  return envelopeOf(callbackDeliveryDataSchema).parse(res.body).data;
}

const settled = (taskId: string, token = alice.token) =>
  until(
    `the callback of ${taskId} to settle`,
    async () => {
      const d = await delivery(taskId, token);
      return d.status === 'SUCCEEDED' || d.status === 'FAILED' ? d : undefined;
    },
    60_000,
    50,
  );

/** Each retry waits its delay, counted from the end of the failed attempt, and no longer. */
function onSchedule(t: Test, attempts: Delivery['attempts']) {
  for (let i = 1; i < attempts.length; i++) {
    const prev = attempts[i - 1]!;
    const gap = attempts[i]!.at - (prev.at + (prev.latencyMs ?? 0));
    t.ok(gap >= DELAYS[i - 1]! - 5, `retry ${i} waits its delay (${gap} ms >= ${DELAYS[i - 1]})`);
    t.ok(gap < DELAYS[i - 1]! + 600, `retry ${i} comes on time (${gap} ms)`);
  }
}

async function secretOf(token: string): Promise<string> {
  const res = await svc.client.get(`${M}/callback`, token);
  return envelopeOf(callbackSettingsDataSchema).parse(res.body).data.secret;
}

t.test('succeeds at once: signed, and the body is the full result', async (t) => {
  const url = receiver.plan('/first-time', []);
  const taskId = await submit(alice.token, url);
  const d = await settled(taskId);
  t.match(d, {
    status: 'SUCCEEDED',
    url,
    webhookId: `msg_${taskId}`,
    attemptCount: 1,
    maxAttempts: 8,
  });
  t.match(d.attempts, [{ attempt: 1, httpStatus: 200, error: null, response: 'thanks' }]);
  const [req, ...more] = receiver.requestsTo('/first-time');
  t.same(more, [], 'exactly one request');
  t.match(req!.headers, { 'content-type': 'application/json', 'webhook-id': `msg_${taskId}` });
  t.notOk('x-aimon-event' in req!.headers, "spec 6's headers only");

  const secret = await secretOf(alice.token);
  t.match(secret, /^whsec_/);
  t.ok(verifyWebhook(secret, req!.headers, req!.body, Date.now()), 'verifies with the user secret');
  t.notOk(
    verifyWebhook(newWebhookSecret(), req!.headers, req!.body, Date.now()),
    'not with another',
  );
  t.notOk(
    verifyWebhook(await secretOf(bob.token), req!.headers, req!.body, Date.now()),
    "nor bob's",
  );

  const body = JSON.parse(req!.body);
  t.same(Object.keys(body), [
    'taskId',
    'userId',
    'timestamp',
    'status',
    'totalItems',
    'completedItems',
    'failedItems',
    'subTaskList',
    'visibility',
    'name',
  ]);
  t.same(
    callbackPayloadSchema.safeParse(body).error?.issues ?? [],
    [],
    'the body fits the documented webhook payload',
  );
  t.equal(body.userId, alice.userId);
  t.ok(Math.abs(body.timestamp - req!.at) < 5_000, 'timestamp is the send time in ms');
  const result = (await svc.client.get(`${M}/task/result/${taskId}`, alice.token)).body.data;
  delete body.userId;
  delete body.timestamp;
  t.same(body, result, 'the rest equals GET task/result');
  t.equal(result.status, 'completed');
});

t.test('failures, then success: every failure class, on schedule, same webhook-id', async (t) => {
  const url = receiver.plan('/flaky', ['500', '404', 'redirect', 'slow']);
  const taskId = await submit(alice.token, url);
  const d = await settled(taskId);
  t.equal(d.status, 'SUCCEEDED');
  t.same(
    d.attempts.map((a) => [a.attempt, a.httpStatus]),
    [
      [1, 500],
      [2, 404],
      [3, 302],
      [4, null],
      [5, 200],
    ],
  );
  t.match(
    d.attempts.map((a) => a.error),
    [
      'HTTP 500',
      'HTTP 404',
      /^redirect \(HTTP 302 to \/flaky\/moved\) not followed$/,
      `read timeout after ${READ_TIMEOUT_MS} ms`,
      null,
    ],
  );
  onSchedule(t, d.attempts);
  const requests = receiver.requestsTo('/flaky');
  t.equal(requests.length, 5, 'one request per attempt, none after success');
  t.same(new Set(requests.map((r) => r.headers['webhook-id'])), new Set([`msg_${taskId}`]));
  const secret = await secretOf(alice.token);
  t.ok(requests.every((r) => verifyWebhook(secret, r.headers, r.body, Date.now())));
});

t.test('a receiver that refuses connections, then comes up', async (t) => {
  const port = await freePort();
  const taskId = await submit(alice.token, `http://127.0.0.1:${port}/late`);
  await until('two refused attempts', async () => (await delivery(taskId)).attempts.length >= 2);
  const late = await startReceiver({ port });
  t.teardown(() => late.close());
  const d = await settled(taskId);
  t.equal(d.status, 'SUCCEEDED');
  t.ok(d.attempts.length >= 3);
  t.match(d.attempts.slice(0, 2), [
    { httpStatus: null, error: 'connection refused' },
    { httpStatus: null, error: 'connection refused' },
  ]);
  t.equal(late.requestsTo('/late').length, 1);
});

t.test('a receiver that always fails: 8 attempts, FAILED, then silence', async (t) => {
  const url = receiver.plan('/broken', Array(20).fill('500'));
  const taskId = await submit(alice.token, url);
  const d = await settled(taskId);
  t.equal(d.status, 'FAILED');
  t.equal(d.attempts.length, 8, 'the first attempt and seven retries');
  t.equal(d.nextAttemptAt, null);
  t.ok(d.finishedAt);
  await new Promise((r) => setTimeout(r, 1_500));
  t.equal(receiver.requestsTo('/broken').length, 8, 'nothing is sent after FAILED');
});

t.test(
  'the default address applies without callbackUrl; clearing it stops callbacks',
  async (t) => {
    const url = receiver.plan('/default', []);
    const put = await svc.client.request('PUT', `${M}/callback`, {
      token: bob.token,
      body: { callbackUrl: url },
    });
    t.equal(put.status, 200, put.text);
    t.equal(envelopeOf(callbackSettingsDataSchema).parse(put.body).data.callbackUrl, url);
    const withDefault = await submit(bob.token);
    t.match(await settled(withDefault, bob.token), { status: 'SUCCEEDED', url });
    t.equal(receiver.requestsTo('/default').length, 1);

    const own = receiver.plan('/own', []);
    const withOwn = await submit(bob.token, own);
    t.match(
      await settled(withOwn, bob.token),
      { status: 'SUCCEEDED', url: own },
      'callbackUrl wins',
    );

    const cleared = await svc.client.request('PUT', `${M}/callback`, {
      token: bob.token,
      body: { callbackUrl: null },
    });
    t.equal(cleared.body.data.callbackUrl, null);
    const none = await submit(bob.token);
    await until('the task to finish', async () => {
      const s = await svc.client.get(`${M}/task/status/${none}`, bob.token);
      return s.body.data.completedAt !== null;
    });
    await new Promise((r) => setTimeout(r, 300));
    t.match(await delivery(none, bob.token), { status: 'NONE', url: null, attempts: [] });
    t.equal(receiver.requestsTo('/default').length, 1, 'no callback once cleared');
  },
);

t.test('a missed task.finished: the sweep at start creates and sends the callback', async (t) => {
  await svc.broker.destroyService(svc.broker.getLocalService('callbacks')!);
  const url = receiver.plan('/missed', []);
  const taskId = await submit(alice.token, url);
  const conn = await svc.db();
  await until('the task to finish', async () => {
    const task = await conn.collection('tasks').findOne({ _id: taskId as never });
    return task?.completedAt ? true : undefined;
  });
  t.equal(await conn.collection('deliveries').countDocuments({ _id: taskId as never }), 0);
  svc.broker.createService(callbacksService(svc.config));
  await svc.broker.waitForServices('callbacks');
  const d = await settled(taskId);
  t.equal(d.status, 'SUCCEEDED');
  t.equal(receiver.requestsTo('/missed').length, 1);
});

t.test(
  'an attempt whose instance died counts as interrupted, and the schedule goes on',
  async (t) => {
    const url = receiver.plan('/orphan', []);
    const taskId = await submit(alice.token, url);
    await settled(taskId);
    // Leave the state a process killed in the middle of its attempt leaves behind.
    const conn = await svc.db();
    await conn.collection('deliveries').updateOne(
      { _id: taskId as never },
      {
        $set: {
          status: 'SENDING',
          attemptCount: 2,
          leaseToken: 'held-by-a-dead-instance',
          leaseNode: 'gone-1',
          leaseExpiresAt: Date.now() - 1,
          finishedAt: null,
        },
      },
    );
    const d = await until('the lapsed attempt to be recorded and retried', async () => {
      const s = await delivery(taskId);
      return s.status === 'SUCCEEDED' && s.attempts.length === 3 ? s : undefined;
    });
    t.match(d.attempts, [
      { attempt: 1, httpStatus: 200 },
      { attempt: 2, httpStatus: null, error: /^interrupted: instance gone-1 stopped/ },
      { attempt: 3, httpStatus: 200 },
    ]);
    t.equal(receiver.requestsTo('/orphan').length, 2);
  },
);

t.test('delivery state is visible only to the owner', async (t) => {
  const taskId = await submit(alice.token, receiver.plan('/private', []));
  const other = await svc.client.get(`${M}/task/${taskId}/callbacks`, bob.token);
  t.equal(other.status, 404);
  t.match(other.body, { success: false, code: 404, data: null });
  t.equal((await svc.client.get(`${M}/task/not-a-uuid/callbacks`, alice.token)).status, 400);
  t.equal((await svc.client.get(`${M}/task/${taskId}/callbacks`)).status, 401);
});

t.test('the secret can be read and rotated', async (t) => {
  const before = await secretOf(alice.token);
  t.equal(await secretOf(alice.token), before, 'stable until rotated');
  const rotated = await svc.client.request('POST', `${M}/callback/secret/rotate`, {
    token: alice.token,
  });
  t.equal(rotated.status, 200);
  const after = envelopeOf(callbackSettingsDataSchema).parse(rotated.body).data.secret;
  t.not(after, before);
  t.equal(await secretOf(alice.token), after);
  const taskId = await submit(alice.token, receiver.plan('/rotated', []));
  await settled(taskId);
  const [req] = receiver.requestsTo('/rotated') as Received[];
  t.ok(verifyWebhook(after, req!.headers, req!.body, Date.now()), 'signed with the new secret');
  t.notOk(verifyWebhook(before, req!.headers, req!.body, Date.now()), 'not the old one');
});

t.test(
  'a monitor alert through callbacks.deliver: signed, named and retried like a task callback',
  async (t) => {
    const runId = randomUUID();
    const body = {
      monitorId: randomUUID(),
      runId,
      changes: [{ kind: 'brand_lost', keyword: 'Acme', before: 0.8, after: 0.1 }],
    };
    const request = {
      kind: 'monitor.changes',
      subjectId: runId,
      userId: alice.userId,
      url: receiver.plan('/alert', ['500', 'slow']),
      body,
    };
    const queued = { kind: 'monitor.changes', subjectId: runId };
    t.same(await svc.broker.call('callbacks.deliver', request), { ...queued, created: true });
    t.same(
      await svc.broker.call('callbacks.deliver', request),
      { ...queued, created: false },
      'the same kind and subject again queues nothing',
    );
    const deliveryOf = (userId: number) =>
      svc.broker.call<Delivery, object>('callbacks.deliveryOf', { userId, ...queued });
    const d = await until('the alert to be delivered', async () => {
      const state = await deliveryOf(alice.userId);
      return state.status === 'SUCCEEDED' ? state : undefined;
    });
    t.same(callbackDeliveryDataSchema.safeParse(d).error?.issues ?? [], [], 'the delivery view');
    t.match(d, {
      taskId: null,
      ...queued,
      url: request.url,
      webhookId: `msg_monitor.changes_${runId}`,
      attemptCount: 3,
      maxAttempts: 8,
    });
    t.same(
      d.attempts.map((a) => [a.httpStatus, a.error]),
      [
        [500, 'HTTP 500'],
        [null, `read timeout after ${READ_TIMEOUT_MS} ms`],
        [200, null],
      ],
    );
    onSchedule(t, d.attempts);

    const requests = receiver.requestsTo('/alert');
    t.equal(requests.length, 3, 'one request per attempt');
    const secret = await secretOf(alice.token);
    for (const req of requests) {
      t.match(req.headers, {
        'content-type': 'application/json',
        'webhook-id': `msg_monitor.changes_${runId}`,
        'x-aimon-event': 'monitor.changes',
      });
      t.ok(verifyWebhook(secret, req.headers, req.body, Date.now()), 'signed with the user secret');
      t.same(JSON.parse(req.body), body, 'the body as queued');
    }
    await t.rejects(deliveryOf(bob.userId), { code: 404 }, "another user's delivery is unknown");

    // Purged after it finished (the service passes now − RETENTION_DAYS); task callbacks go with their task.
    const conn = await svc.db();
    const store = new DeliveryStore(deliveryModel(conn));
    const finished = { userId: alice.userId, status: 'SUCCEEDED', finishedAt: 1, attempts: [] };
    const taskCallbacks = [
      { _id: randomUUID(), kind: 'task', subjectId: 'x', ...finished },
      { _id: randomUUID(), ...finished }, // stored before kinds existed
    ];
    await conn.collection('deliveries').insertMany(taskCallbacks as never[]);
    t.equal(await store.purgeFinished(d.finishedAt!), 0, 'kept until then');
    t.equal(await store.purgeFinished(Date.now() + 1), 1, 'removed after, task callbacks kept');
    const ids = { _id: { $in: taskCallbacks.map((c) => c._id) } as never };
    t.equal((await conn.collection('deliveries').deleteMany(ids)).deletedCount, 2);
  },
);

t.test(
  'the daily digest: once per day across two nodes, then once for the latest day',
  async (t) => {
    const url = receiver.plan('/digest', []);
    const schedule = { cron: '0 0 1 1 *', timezone: 'Asia/Shanghai' };
    const created = await svc.client.post(
      `${M}/monitors`,
      {
        name: 'digest',
        prompts: ['one'],
        platforms: [{ platform: 'sandbox', mode: 'search' }],
        monitorKeywords: 'Acme',
        schedule,
        callbackUrl: url,
        digest: true,
      },
      alice.token,
    );
    t.equal(created.status, 200, created.text);
    const monitorId = created.body.data.monitorId as string;
    t.equal(created.body.data.digest, true);
    const runId = (await svc.client.post(`${M}/monitors/${monitorId}/run`, {}, alice.token)).body
      .data.runId as string;
    const run = await until('the run to finish', async () => {
      const runs = (await svc.client.get(`${M}/monitors/${monitorId}/runs`, alice.token)).body.data;
      return runs.runs[0]?.status === 'finished' ? runs.runs[0] : undefined;
    });
    const conn = await svc.db();
    // A change as the monitors service stores it when a run finishes.
    const changeId = randomUUID();
    await conn.collection('monitorChanges').insertOne({
      _id: changeId as never,
      monitorId,
      runId,
      detectedAt: Date.now(),
      kind: 'brand_lost',
      keyword: 'Acme',
    });

    // The cluster's own leader sees no digest due: today's 09:00 came before the monitor.
    const nodes = ['a', 'b'].map(
      () =>
        new Digests({
          connection: conn,
          models: monitorModels(conn),
          deliver: (request) => svc.broker.call('callbacks.deliver', request),
          warn: (message, err) => t.fail(`${message} ${String(err)}`),
        }),
    );
    const nine = nextDue({ cron: '0 9 * * *', timezone: schedule.timezone }, Date.now());
    await Promise.all(nodes.map((node) => node.pass(nine + 1_000)));
    t.equal(await nodes[0]!.pass(nine + 3_600_000), 0, 'nothing more that day');
    const digests = () =>
      conn
        .collection('deliveries')
        .find({ kind: 'monitor.digest', userId: alice.userId })
        .toArray();
    t.equal((await digests()).length, 1, 'one delivery for the day, though two nodes passed');

    const [req] = await until('the digest to arrive', async () => {
      const got = receiver.requestsTo('/digest');
      return got.length > 0 ? got : undefined;
    });
    t.match(req!.headers, { 'x-aimon-event': 'monitor.digest' });
    t.ok(verifyWebhook(await secretOf(alice.token), req!.headers, req!.body, Date.now()), 'signed');
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: schedule.timezone }).format(nine);
    t.equal(req!.headers['webhook-id'], `msg_monitor.digest_${monitorId}@${day}`);
    const body = JSON.parse(req!.body);
    t.same(
      monitorDigestPayloadSchema.safeParse(body).error?.issues ?? [],
      [],
      'the body fits the documented digest payload',
    );
    t.match(body, {
      monitorId,
      name: 'digest',
      day,
      timezone: schedule.timezone,
      from: nine - 86_400_000,
      to: nine,
      changes: [{ id: changeId, monitorId, runId, kind: 'brand_lost', keyword: 'Acme' }],
      changesTruncated: false,
    });
    t.same(body.runs, [
      {
        runId,
        trigger: 'manual',
        slot: run.slot,
        status: 'finished',
        finishedAt: run.finishedAt,
        regions: [{ regionCode: null, taskId: run.regions[0].taskId, taskStatus: 'completed' }],
      },
    ]);

    // Down for three days: on recovery one digest, for the latest day, with an empty window.
    const later = nine + 3 * 86_400_000;
    t.equal(await nodes[1]!.pass(later + 5_000), 1);
    t.equal(await nodes[0]!.pass(later + 60_000), 0);
    const laterDay = new Intl.DateTimeFormat('en-CA', { timeZone: schedule.timezone }).format(
      later,
    );
    t.same(
      (await digests()).map((d) => d.subjectId),
      [`${monitorId}@${day}`, `${monitorId}@${laterDay}`],
    );
    const [, last] = await until('the second digest', async () => {
      const got = receiver.requestsTo('/digest');
      return got.length === 2 ? got : undefined;
    });
    t.match(JSON.parse(last!.body), { day: laterDay, runs: [], changes: [] });
  },
);
