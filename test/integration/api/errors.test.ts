import { once } from 'node:events';
import { connect } from 'node:net';
import t from 'tap';
import { errorEnvelopeSchema } from '../../../services/shared/contracts/http.js';
import { snapshotCounts, startEmbedded } from '../../helpers/cluster.js';
import { captureApiWarnings } from '../../helpers/api-log.js';

const SUBMIT = '/api/business/monitor/task/batch/shared';
const GOOD = { prompts: ['p'], platforms: [{ platform: 'sandbox', mode: 'standard' }] };

t.test('transport-level errors of the submit endpoint', async (t) => {
  const svc = await startEmbedded(t);
  const u = await svc.newUser();
  const conn = await svc.db();
  const before = await snapshotCounts(conn);

  const cases: [string, Parameters<typeof svc.client.request>[2], number, RegExp][] = [
    [
      'malformed JSON',
      { token: u.token, rawBody: '{"prompts": [', headers: { 'content-type': 'application/json' } },
      400,
      /malformed JSON/,
    ],
    [
      'empty body',
      { token: u.token, rawBody: '', headers: { 'content-type': 'application/json' } },
      400,
      /JSON object/,
    ],
    ['JSON array', { token: u.token, body: [GOOD] }, 400, /JSON object/],
    [
      'JSON null',
      { token: u.token, rawBody: 'null', headers: { 'content-type': 'application/json' } },
      400,
      /JSON object/,
    ],
    [
      'text/plain',
      { token: u.token, rawBody: JSON.stringify(GOOD), headers: { 'content-type': 'text/plain' } },
      415,
      /application\/json/,
    ],
    [
      'no content type',
      { token: u.token, rawBody: JSON.stringify(GOOD) },
      415,
      /application\/json/,
    ],
    [
      'over 1 MiB',
      { token: u.token, body: { ...GOOD, monitorKeywords: 'x'.repeat(1024 * 1024 + 10) } },
      413,
      /larger than 1048576 bytes/,
    ],
  ];
  for (const [name, options, status, message] of cases) {
    const res = await svc.client.request('POST', SUBMIT, options);
    t.equal(res.status, status, name);
    const body = errorEnvelopeSchema.parse(res.body);
    t.equal(body.code, status, `${name}: code = HTTP status`);
    t.match(body.message, message, name);
  }
  t.same(await snapshotCounts(conn), before, 'nothing stored by any rejected request');

  const charset = await svc.client.request('POST', SUBMIT, {
    token: u.token,
    rawBody: JSON.stringify(GOOD),
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
  t.equal(charset.status, 200, 'a charset parameter is fine');
});

t.test('unknown routes are 404 and wrong methods 405, in the envelope', async (t) => {
  const svc = await startEmbedded(t);
  const u = await svc.newUser();
  const notFound = await svc.client.get('/api/business/monitor/nothing-here', u.token);
  t.equal(notFound.status, 404);
  t.match(errorEnvelopeSchema.parse(notFound.body), { code: 404 });
  const wrongMethod = await svc.client.request('DELETE', '/api/business/monitor/task/list', {
    token: u.token,
  });
  t.equal(wrongMethod.status, 405);
  t.match(errorEnvelopeSchema.parse(wrongMethod.body), { code: 405 });
  // `/` is the dashboard (services/api/routes/dashboard.ts); other paths outside the API are not.
  const outside = await svc.client.get('/nothing-here');
  t.equal(outside.status, 404);
  t.match(errorEnvelopeSchema.parse(outside.body), { code: 404 });
});

t.test('a dependency that is down answers 503, not 500', async (t) => {
  const svc = await startEmbedded(t);
  const u = await svc.newUser();
  await svc.broker.destroyService(svc.broker.getLocalService('tasks')!);
  const res = await svc.client.get('/api/business/monitor/task/list', u.token);
  t.equal(res.status, 503);
  t.match(errorEnvelopeSchema.parse(res.body), { code: 503, message: /unavailable/ });
});

t.test('per-user rate limit answers 429 with Retry-After', async (t) => {
  const svc = await startEmbedded(t, { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '3' });
  const a = await svc.newUser('a');
  const b = await svc.newUser('b');
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < 5; i++) {
    last = await svc.client.get('/api/business/monitor/task/list', a.token);
    statuses.push(last.status);
  }
  t.same(statuses, [200, 200, 200, 429, 429]);
  t.equal(last!.headers.get('retry-after'), '1');
  t.match(errorEnvelopeSchema.parse(last!.body), { code: 429, message: /rate limit/ });
  const other = await svc.client.get('/api/business/monitor/task/list', b.token);
  t.equal(other.status, 200, 'another user has its own bucket');
});

t.test('cap on unfinished sub tasks answers 429 and stores nothing', async (t) => {
  const svc = await startEmbedded(t, { MAX_UNFINISHED_SUBTASKS: '5' });
  const u = await svc.newUser();
  const three = {
    prompts: ['a', 'b', 'c'],
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
  };
  t.equal((await svc.client.post(SUBMIT, three, u.token)).status, 200);
  const conn = await svc.db();
  const before = await snapshotCounts(conn);
  const res = await svc.client.post(SUBMIT, three, u.token);
  t.equal(res.status, 429);
  t.ok(Number(res.headers.get('retry-after')) >= 1);
  t.match(res.body.message, /too many unfinished sub tasks: 3 running, 3 submitted, limit 5/);
  t.same(await snapshotCounts(conn), before);
  const two = { prompts: ['a', 'b'], platforms: [{ platform: 'sandbox', mode: 'standard' }] };
  t.equal((await svc.client.post(SUBMIT, two, u.token)).status, 200, 'up to the cap is fine');
});

t.test('limits are counted before deduplication', async (t) => {
  const svc = await startEmbedded(t);
  const u = await svc.newUser();
  const fifty = Array.from({ length: 50 }, () => ({ platform: 'sandbox', mode: 'standard' }));
  const ok = await svc.client.post(
    SUBMIT,
    { prompts: Array(50).fill('p'), platforms: fifty },
    u.token,
  );
  t.equal(ok.status, 200);
  t.equal(ok.body.data.totalTask, 50, '50 prompts × 1 platform after dedup');
  const over = await svc.client.post(
    SUBMIT,
    { prompts: ['p'], platforms: [...fifty, fifty[0]] },
    u.token,
  );
  t.equal(over.status, 400);
  t.same(over.body.errors, [
    {
      field: 'platforms',
      message: 'must contain at most 50 entries (counted before deduplication)',
    },
  ]);
});

t.test('a submitted sub task crash between writes is completed on restart', async (t) => {
  const svc = await startEmbedded(t);
  const u = await svc.newUser();
  const res = await svc.client.post(
    SUBMIT,
    { prompts: ['a', 'b'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    u.token,
  );
  const { taskId } = res.body.data;
  const conn = await svc.db();
  // Simulate a crash after the task document but before its sub tasks were written.
  await conn.collection('subtasks').deleteMany({ taskId });
  await conn
    .collection('tasks')
    .updateOne(
      { _id: taskId },
      { $set: { subtasksWritten: false, createdAt: Date.now() - 120_000 } },
    );
  const tasks = svc.broker.getLocalService('tasks')!;
  await svc.broker.destroyService(tasks);
  const { tasksService } = await import('../../../services/tasks/tasks.service.js');
  await svc.broker.createService(tasksService(svc.config));
  await svc.broker.waitForServices(['tasks']);
  const status = await svc.client.get(`/api/business/monitor/task/status/${taskId}`, u.token);
  t.same(
    status.body.data.subTaskList.map((s: { subTaskId: string }) => s.subTaskId),
    res.body.data.subTaskList.map((s: { subTaskId: string }) => s.subTaskId),
    'the same sub task ids are restored',
  );
  t.match(await conn.collection('tasks').findOne({ _id: taskId }), { subtasksWritten: true });
});

t.test('text that is not Unicode is a 400 naming the field, and nothing is stored', async (t) => {
  const svc = await startEmbedded(t);
  const u = await svc.newUser();
  const conn = await svc.db();
  const before = await snapshotCounts(conn);
  const json = { 'content-type': 'application/json' };
  const cases: [string, Uint8Array | string, { field: string; message: RegExp }[]][] = [
    [
      'invalid UTF-8 in a prompt',
      Buffer.concat([
        Buffer.from('{"prompts":["fine","caf'),
        Buffer.from([0xe9]),
        Buffer.from('"],"platforms":[{"platform":"sandbox","mode":"standard"}]}'),
      ]),
      [{ field: 'prompts[1]', message: /not valid UTF-8 \(byte 23\)/ }],
    ],
    [
      'an encoded surrogate in the keywords',
      Buffer.concat([
        Buffer.from('{"monitorKeywords":"'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('","prompts":["p"],"platforms":[{"platform":"sandbox","mode":"standard"}]}'),
      ]),
      [{ field: 'monitorKeywords', message: /not valid UTF-8/ }],
    ],
    [
      'lone surrogates in JSON escapes',
      '{"prompts":["\\ud800","ok","x\\udfff"],"platforms":[{"platform":"sandbox","mode":"standard"}]}',
      [
        { field: 'prompts[0]', message: /lone surrogate/ },
        { field: 'prompts[2]', message: /lone surrogate/ },
      ],
    ],
  ];
  for (const [name, rawBody, errors] of cases) {
    const res = await svc.client.request('POST', SUBMIT, {
      token: u.token,
      rawBody,
      headers: json,
    });
    t.equal(res.status, 400, name);
    t.match(errorEnvelopeSchema.parse(res.body), { code: 400, errors }, name);
    t.equal(res.body.errors.length, errors.length, `${name}: only those`);
  }
  const token = await svc.client.request('POST', '/api/business/auth/token', {
    rawBody: `{"apiKey":"${u.apiKey}\\udc00"}`,
    headers: json,
  });
  t.match(token.body, { code: 400, errors: [{ field: 'apiKey', message: /lone surrogate/ }] });
  const callback = await svc.client.request('PUT', '/api/business/monitor/callback', {
    token: u.token,
    rawBody: Buffer.concat([
      Buffer.from('{"callbackUrl":"https://example.com/h'),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from('"}'),
    ]),
    headers: json,
  });
  t.match(callback.body, { code: 400, errors: [{ field: 'callbackUrl', message: /UTF-8/ }] });
  const settings = await svc.client.get('/api/business/monitor/callback', u.token);
  t.equal(settings.body.data.callbackUrl, null, 'the default address is unchanged');
  t.same(await snapshotCounts(conn), before, 'nothing stored');

  const paired = await svc.client.request('POST', SUBMIT, {
    token: u.token,
    rawBody:
      '{"prompts":["\\ud83d\\ude00 caf\u00e9"],"platforms":[{"platform":"sandbox","mode":"standard"}]}',
    headers: json,
  });
  t.equal(paired.status, 200, 'surrogate pairs and real UTF-8 are fine');
  const stored = await conn.collection('subtasks').findOne({ taskId: paired.body.data.taskId });
  t.equal(stored?.prompt, '😀 café');
});

t.test('a client that hangs up mid-request leaves nothing in the log', async (t) => {
  const svc = await startEmbedded(t);
  const logged = captureApiWarnings(t, svc);
  const stderr: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    stderr.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
  t.teardown(() => void (process.stderr.write = write));

  const { port } = new URL(svc.client.baseUrl);
  for (const path of ['/api/business/auth/token', SUBMIT]) {
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"apiKey":`,
    );
    await new Promise((r) => setTimeout(r, 200));
    socket.destroy();
  }
  await new Promise((r) => setTimeout(r, 500));
  t.same(logged, [], 'nothing logged');
  t.same(
    stderr.filter((s) => /Error/.test(s)),
    [],
    'no stack printed',
  );
  const health = await svc.client.get('/api/business/health');
  t.equal(health.status, 200, 'the service carries on');
});
