/**
 * The task events stream on one node: snapshot first, a `subtask` event per
 * status change in order, `done` last with the final counters; resume with
 * Last-Event-ID; the token as a query parameter; heartbeats; the per-user cap;
 * owner only; refusals before the stream starts.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { openEvents } from '../../helpers/event-stream.js';
import { until } from '../../helpers/wait.js';
import { DocumentSchemas, sseMessages } from '../../helpers/openapi-schemas.js';

const sandbox = await startSandboxServer({ latencyMs: 60 });
t.teardown(() => sandbox.close());

const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '2',
  RETRY_BASE_MS: '50',
  RETRY_MAX_MS: '100',
  SSE_HEARTBEAT_MS: '200',
  SSE_MAX_PER_USER: '3',
});
const user = await svc.newUser();
const M = '/api/business/monitor';
const doc = (await svc.client.get('/api/business/openapi.json')).body;
const schemas = new DocumentSchemas(doc.components.schemas);
const streamSchema =
  doc.paths['/api/business/monitor/task/{taskId}/events'].get.responses['200'].content[
    'text/event-stream'
  ].schema;
const eventsUrl = (taskId: string) => `${svc.client.baseUrl}${M}/task/${taskId}/events`;

async function submit(prompts: string[], token = user.token): Promise<string> {
  const res = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts,
      platforms: [
        { platform: 'sandbox', mode: 'standard' },
        { platform: 'sandbox-cn', mode: 'search' },
      ],
    },
    token,
  );
  if (res.status !== 200) throw new Error(res.text);
  return res.body.data.taskId as string;
}

interface Change {
  subTaskId: string;
  status: string;
  completedItems: number;
  failedItems: number;
}

t.test('snapshot, each change in order, done with the final counters, then the end', async (t) => {
  // One prompt fails once (a retry: back to pending), one fails for good.
  const taskId = await submit(['alpha', 'beta #fail:500x1', 'gamma #fail:401']);
  const stream = await openEvents(`${eventsUrl(taskId)}?access_token=${user.token}`);
  t.equal(stream.status, 200);
  t.match(stream.headers.get('content-type'), /^text\/event-stream/);
  await stream.ended;

  const { events } = stream;
  t.equal(events[0]?.event, 'snapshot', 'the snapshot comes first');
  t.equal(events.at(-1)?.event, 'done', 'done comes last');
  t.same(
    events.map((e) => Number(e.id)),
    events.map((_, i) => i + 1),
    'ids count up from 1',
  );
  // A schema-aware client: each message as the object of its fields, its data by contentSchema.
  const messages = sseMessages(stream.raw);
  t.equal(messages.filter((m) => m.event).length, events.length, 'every event read back');
  for (const m of messages) {
    const problem = schemas.messageProblem(streamSchema, m);
    t.equal(
      problem,
      undefined,
      `${m.event ? `${m.event} ${m.id}` : 'heartbeat'} fits the document`,
    );
  }
  const snapshot = JSON.parse(events[0]!.data) as { subTaskList: Change[] };
  const last = new Map(snapshot.subTaskList.map((s) => [s.subTaskId, s.status]));
  let counted = 0;
  const changes = events.slice(1, -1).map((e) => JSON.parse(e.data) as Change);
  for (const c of changes) {
    t.not(last.get(c.subTaskId), c.status, `${c.subTaskId} changed to ${c.status}`);
    last.set(c.subTaskId, c.status);
    t.ok(c.completedItems + c.failedItems >= counted, 'counters never go back');
    counted = c.completedItems + c.failedItems;
  }
  t.ok(
    changes.some((c) => c.status === 'processing'),
    'leases show as processing (subtasks.leased)',
  );

  const result = (await svc.client.get(`${M}/task/result/${taskId}`, user.token)).body.data as {
    status: string;
    completedItems: number;
    failedItems: number;
    subTaskList: { subTaskId: string; status: string }[];
  };
  for (const s of result.subTaskList)
    t.equal(last.get(s.subTaskId), s.status, 'the last event of each sub task is its final status');
  const done = JSON.parse(events.at(-1)!.data) as Record<string, unknown>;
  t.match(done, {
    taskId,
    status: result.status,
    completedItems: result.completedItems,
    failedItems: result.failedItems,
  });
  t.equal(result.failedItems, 2, 'the two 401 sub tasks failed; the retried ones completed');

  // Resuming after the end: a fresh snapshot and done, with ids after the given one.
  const resumed = await openEvents(eventsUrl(taskId), { token: user.token, lastEventId: '41' });
  await resumed.ended;
  t.same(
    resumed.events.map((e) => [e.event, e.id]),
    [
      ['snapshot', '42'],
      ['done', '43'],
    ],
  );
});

t.test('heartbeats on a quiet stream; the cap per user; owner only', async (t) => {
  const taskId = await submit(['slow one #latency:4000', 'slow two #latency:4000']);
  const streams = await Promise.all([1, 2, 3].map(() => openEvents(eventsUrl(taskId), user)));
  t.same(
    streams.map((s) => s.status),
    [200, 200, 200],
  );
  const refused = await openEvents(eventsUrl(taskId), user);
  t.equal(refused.status, 429, 'a fourth stream of the same user is refused');
  t.match(refused.body, { success: false, code: 429 });
  t.ok(Number(refused.headers.get('retry-after')) >= 1, 'with Retry-After');

  // Every 200 ms; a busy machine may space them out, so they are awaited.
  await until('two heartbeats', async () => streams[0]!.heartbeats >= 2, 10_000, 50);
  t.ok(streams[0]!.heartbeats >= 2, `heartbeats arrive (${streams[0]!.heartbeats})`);
  const beats = sseMessages(streams[0]!.raw).filter((m) => !m.event);
  t.ok(beats.length >= 2, 'read as messages without an event');
  for (const m of beats)
    t.equal(schemas.messageProblem(streamSchema, m), undefined, 'a heartbeat fits the document');

  const other = await svc.newUser('other');
  const foreign = await openEvents(eventsUrl(taskId), other);
  t.equal(foreign.status, 404, "another user's task is not found");
  const malformed = await openEvents(eventsUrl('not-a-uuid'), user);
  t.equal(malformed.status, 400);
  const anonymous = await openEvents(eventsUrl(taskId));
  t.equal(anonymous.status, 401);
  const wrongPath = await svc.client.get(`${M}/task/list?access_token=${user.token}`);
  t.equal(wrongPath.status, 401, 'only the events stream takes the token from the query');

  // A closed stream frees its place, once the server has seen it close.
  streams[0]!.close();
  const again = await until(
    'the server to see the stream closed',
    async () => {
      const opened = await openEvents(eventsUrl(taskId), user);
      return opened.status === 429 ? undefined : opened;
    },
    10_000,
    100,
  );
  t.equal(again.status, 200, 'a place freed by a closed stream can be taken');
  await again.until((e) => e.event === 'done', 60_000);
  await Promise.all([again.ended, streams[1]!.ended, streams[2]!.ended]);
  t.equal(streams[1]!.events.at(-1)?.event, 'done', 'every open stream of the task hears done');
});
