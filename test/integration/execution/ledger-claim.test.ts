/** Claiming the picks of one dispatch pass for a node, against the real MongoDB-wire server. */
import t from 'tap';
import mongoose from 'mongoose';
import { Ledger } from '../../../services/shared/subtasks/ledger.js';
import { taskModels } from '../../../services/shared/subtasks/models.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';

const conn = await mongoose
  .createConnection(mongoUrl(), { dbName: uniqueDbName('ledgerclaim') })
  .asPromise();
const ledger = new Ledger(
  taskModels(conn),
  { now: () => Date.now() },
  { maxAttempts: 3, backoff: () => 1_000, claimBookkeepingMs: 10 },
);
t.teardown(async () => {
  await ledger.close();
  await conn.dropDatabase();
  await conn.close();
});
const subtasks = conn.collection('subtasks');

async function seed(taskId: string, statuses: string[]) {
  await conn.collection('tasks').insertOne({ _id: taskId as never, status: 'pending', version: 0 });
  await subtasks.insertMany(
    statuses.map((status, seq) => ({
      _id: `${taskId}-${seq}` as never,
      taskId,
      seq,
      status,
      attempts: 0,
      leaseToken: status === 'processing' ? 'someone-else' : null,
    })),
  );
  return statuses.map((_, seq) => ({ id: `${taskId}-${seq}`, taskId }));
}

t.test('every pick still pending is claimed under the one token', async (t) => {
  const picks = await seed('A', ['pending', 'pending', 'pending']);
  const claimed = await ledger.claim(picks, 'node-1', 'tok-A', 123);
  t.strictSame(claimed.sort(), ['A-0', 'A-1', 'A-2']);
  const docs = await subtasks.find({ taskId: 'A' }).sort({ seq: 1 }).toArray();
  t.strictSame(
    docs.map((d) => [d.status, d.leaseToken, d.leaseNode, d.leaseExpiresAt, d.attempts]),
    [
      ['processing', 'tok-A', 'node-1', 123, 1],
      ['processing', 'tok-A', 'node-1', 123, 1],
      ['processing', 'tok-A', 'node-1', 123, 1],
    ],
  );
});

t.test('picks no longer pending are left alone and not returned', async (t) => {
  const picks = await seed('B', ['pending', 'processing', 'completed', 'pending']);
  const claimed = await ledger.claim(
    [...picks, { id: 'B-missing', taskId: 'B' }],
    'node-2',
    'tok-B',
    456,
  );
  t.strictSame(claimed.sort(), ['B-0', 'B-3']);
  const byId = new Map(
    (await subtasks.find({ taskId: 'B' }).toArray()).map((d) => [String(d._id), d]),
  );
  t.match(byId.get('B-1'), { status: 'processing', leaseToken: 'someone-else', attempts: 0 });
  t.match(byId.get('B-2'), { status: 'completed', attempts: 0 });
  t.match(byId.get('B-3'), { status: 'processing', leaseToken: 'tok-B', attempts: 1 });
});

t.test("a restarted node's old leases are found apart from its new ones", async (t) => {
  const old = await seed('R', ['pending', 'pending']);
  const fresh = await seed('S', ['pending']);
  const unknown = await seed('U', ['pending']);
  await ledger.claim(old, 'node-r', 'tok-old', 111, 'instance-1');
  await ledger.claim(fresh, 'node-r', 'tok-new', 222, 'instance-2');
  await ledger.claim(unknown, 'node-r', 'tok-unknown', 333);
  const ids = async (instance?: string) =>
    (await ledger.staleLeases('node-r', instance)).map((l) => String(l._id)).sort();
  t.strictSame(
    await ids('instance-2'),
    ['R-0', 'R-1'],
    'those of the other incarnation (not one taken with no incarnation known)',
  );
  t.strictSame(await ids(), ['R-0', 'R-1', 'S-0', 'U-0'], 'without an instance: all of the node');
});

t.test('claims start their task (the bookkeeping window)', async (t) => {
  const picks = await seed('C', ['pending']);
  await ledger.claim(picks, 'node-1', 'tok-C', 789);
  await ledger.close();
  t.match(await conn.collection('tasks').findOne({ _id: 'C' as never }), {
    status: 'processing',
    version: 1,
  });
});
