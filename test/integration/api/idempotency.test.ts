/**
 * A submission retried with its Idempotency-Key (after a timeout or a 503, the
 * client cannot know whether the first try was taken) gets the first try's
 * task, never a second one: in the soak under overload, retried submits made
 * second tasks, which answered every prompt twice and called back twice.
 */
import t from 'tap';
import {
  envelopeOf,
  errorEnvelopeSchema,
  submitDataSchema,
} from '../../../services/shared/contracts/http.js';
import { startEmbedded, snapshotCounts } from '../../helpers/cluster.js';

const SUBMIT = '/api/business/monitor/task/batch/shared';

const svc = await startEmbedded(t);
const alice = await svc.newUser('alice');
const bob = await svc.newUser('bob');

const body = {
  monitorKeywords: 'Acme',
  prompts: ['best CRM?', 'cheapest CRM?'],
  platforms: [{ platform: 'deepseek', mode: 'standard' }],
};
const submit = (token: string, key: string | undefined, b: unknown = body) =>
  svc.client.request('POST', SUBMIT, {
    token,
    body: b,
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
  });

t.test('a retry with the key gets the first task, and stores nothing more', async (t) => {
  const conn = await svc.db();
  const first = await submit(alice.token, 'order-7f3a');
  t.equal(first.status, 200);
  t.equal(first.headers.get('idempotent-replayed'), null, 'the first try is no replay');
  const before = await snapshotCounts(conn);

  // The same request, its keys in another order (another client's JSON writer).
  const reordered = { platforms: body.platforms, prompts: body.prompts, monitorKeywords: 'Acme' };
  const again = await submit(alice.token, 'order-7f3a', reordered);
  t.equal(again.status, 200);
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  const a = envelopeOf(submitDataSchema).parse(first.body).data;
  const b = envelopeOf(submitDataSchema).parse(again.body).data;
  t.strictSame(b, a, 'the answer of the first try, sub task ids and all');
  t.strictSame(await snapshotCounts(conn), before, 'no second task, no second sub task');
});

t.test('the same key with another request is refused with 422', async (t) => {
  const conn = await svc.db();
  const first = await submit(alice.token, 'order-8b21');
  t.equal(first.status, 200);
  const before = await snapshotCounts(conn);
  const other = await submit(alice.token, 'order-8b21', { ...body, prompts: ['another?'] });
  t.equal(other.status, 422);
  const err = errorEnvelopeSchema.parse(other.body);
  t.match(err.message, /Idempotency-Key was sent with another request \(task [0-9a-f-]{36}\)/);
  t.strictSame(await snapshotCounts(conn), before, 'nothing stored');
});

t.test('a key is the user’s own: another user’s same key makes their own task', async (t) => {
  const a = await submit(alice.token, 'shared-key');
  const b = await submit(bob.token, 'shared-key');
  t.equal(a.status, 200);
  t.equal(b.status, 200);
  t.not(a.body.data.taskId, b.body.data.taskId);
  t.equal(b.headers.get('idempotent-replayed'), null);
});

t.test('without a key, two submissions are two tasks', async (t) => {
  const a = await submit(alice.token, undefined);
  const b = await submit(alice.token, undefined);
  t.not(a.body.data.taskId, b.body.data.taskId);
});

t.test('tries with one key at the same moment make one task', async (t) => {
  const conn = await svc.db();
  const before = await snapshotCounts(conn);
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => submit(alice.token, 'burst-1')),
  );
  t.strictSame(
    answers.map((r) => r.status),
    [200, 200, 200, 200, 200],
  );
  t.equal(new Set(answers.map((r) => r.body.data.taskId)).size, 1, 'one task id');
  t.equal(
    answers.filter((r) => r.headers.get('idempotent-replayed') === 'true').length,
    4,
    'four of them replays',
  );
  const after = await snapshotCounts(conn);
  t.equal(after.tasks, (before.tasks ?? 0) + 1);
  t.equal(after.subtasks, (before.subtasks ?? 0) + 2);
});

t.test('a bad key is listed with the body’s problems, and nothing is stored', async (t) => {
  const conn = await svc.db();
  const before = await snapshotCounts(conn);
  // A Latin-1 letter passes HTTP but is not printable ASCII.
  const res = await submit(alice.token, 'caf\u00e9', { ...body, prompts: [] });
  t.equal(res.status, 400);
  const fields = (errorEnvelopeSchema.parse(res.body).errors ?? []).map((e) => e.field);
  t.ok(fields.includes('Idempotency-Key'), 'the key');
  t.ok(fields.includes('prompts'), 'and the body');
  const long = await submit(alice.token, 'k'.repeat(256));
  t.equal(long.status, 400);
  t.strictSame(await snapshotCounts(conn), before);
});
