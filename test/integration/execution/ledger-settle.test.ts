/**
 * Settling a crawler node's batch of reports, against the real MongoDB-wire
 * server: each report is taken or dropped on its own, the counters of every
 * task are right, and a task finished by the batch is reported once.
 */
import t from 'tap';
import mongoose from 'mongoose';
import { Ledger, type SettleReport } from '../../../services/tasks/ledger.js';
import { taskModels } from '../../../services/tasks/models.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';
import { plainResult } from '../../helpers/results.js';

const conn = await mongoose
  .createConnection(mongoUrl(), { dbName: uniqueDbName('ledgersettle') })
  .asPromise();
const ledger = new Ledger(
  taskModels(conn),
  { now: () => 5_000 },
  { maxAttempts: 3, backoff: () => 1_000, claimBookkeepingMs: 10 },
);
t.teardown(async () => {
  await ledger.close();
  await conn.dropDatabase();
  await conn.close();
});
const tasks = conn.collection('tasks');
const subtasks = conn.collection('subtasks');

/** A processing task whose sub tasks are all leased under `tok-<taskId>` (attempts as given). */
async function seed(taskId: string, attempts: number[]) {
  await tasks.insertOne({
    _id: taskId as never,
    userId: 7,
    status: 'processing',
    totalItems: attempts.length,
    completedItems: 0,
    failedItems: 0,
    version: 0,
  });
  await subtasks.insertMany(
    attempts.map((n, seq) => ({
      _id: `${taskId}-${seq}` as never,
      taskId,
      seq,
      platform: 'sandbox',
      status: 'processing',
      attempts: n,
      leaseToken: `tok-${taskId}`,
      leaseNode: 'node-1',
    })),
  );
}

const done = (id: string, token: string): SettleReport => ({
  subTaskId: id,
  token,
  result: plainResult,
  proxyIp: '127.0.0.9',
  proxyKey: '127.0.0.1:3128',
});
const broke = (id: string, token: string, retryable: boolean): SettleReport => ({
  subTaskId: id,
  token,
  failure: { status: retryable ? 'failed' : 'error', retryable, message: 'it broke' },
  proxyKey: '127.0.0.1:3128',
});

t.test('each report of a batch is taken or dropped on its own, in order', async (t) => {
  await seed('A', [1, 1, 1, 3]);
  await seed('B', [1, 1]);
  const settled = await ledger.settle([
    done('A-0', 'tok-A'),
    done('B-0', 'tok-B'),
    broke('A-1', 'tok-A', true),
    done('A-2', 'stale-token'),
    broke('A-3', 'tok-A', true),
    done('missing', 'tok-A'),
  ]);
  t.strictSame(
    settled.map((s) => s && [s.subTaskId, s.outcome]),
    [
      ['A-0', 'completed'],
      ['B-0', 'completed'],
      ['A-1', 'retry'],
      undefined,
      ['A-3', 'failed'],
      undefined,
    ],
  );
  t.equal(settled[2]!.notBefore, 6_000, 'a retry waits out its backoff');
  t.ok(
    settled.every((s) => s?.finished === undefined),
    'no task finished yet',
  );

  const byId = new Map((await subtasks.find().toArray()).map((d) => [String(d._id), d]));
  t.match(byId.get('A-0'), {
    status: 'completed',
    time: 5_000,
    proxyIp: '127.0.0.9',
    leaseToken: null,
  });
  t.match(byId.get('A-1'), { status: 'pending', notBefore: 6_000, lastProxy: '127.0.0.1:3128' });
  t.match(
    byId.get('A-2'),
    { status: 'processing', leaseToken: 'tok-A' },
    'a stale token changes nothing',
  );
  t.match(byId.get('A-3'), { status: 'failed', errorMessage: 'it broke', attempts: 3 });
  t.match(await tasks.findOne({ _id: 'A' as never }), { completedItems: 1, failedItems: 1 });
  t.match(await tasks.findOne({ _id: 'B' as never }), { completedItems: 1, failedItems: 0 });
});

t.test('a batch that ends a task reports its finish once, with one of its sub tasks', async (t) => {
  await seed('C', [1, 1, 1]);
  const settled = await ledger.settle([
    done('C-0', 'tok-C'),
    broke('C-1', 'tok-C', false),
    done('C-2', 'tok-C'),
  ]);
  const finishes = settled.flatMap((s) => (s?.finished ? [s.finished] : []));
  t.strictSame(finishes, [
    { taskId: 'C', userId: 7, status: 'partial_completed', completedAt: 5_000 },
  ]);
  t.match(await tasks.findOne({ _id: 'C' as never }), {
    status: 'partial_completed',
    completedItems: 2,
    failedItems: 1,
    completedAt: 5_000,
  });
  t.strictSame(await ledger.settle([done('C-0', 'tok-C')]), [undefined], 'a repeat is dropped');
  t.match(await tasks.findOne({ _id: 'C' as never }), { completedItems: 2 }, 'and counts nothing');
});

t.test(
  'two batches racing over one task count every sub task once and finish it once',
  async (t) => {
    const n = 20;
    await seed(
      'D',
      Array.from({ length: n }, () => 1),
    );
    const reports = Array.from({ length: n }, (_, i) => done(`D-${i}`, 'tok-D'));
    // The same reports twice, split differently: a retried batch racing its first delivery.
    const [first, second] = await Promise.all([
      ledger.settle(reports),
      ledger.settle([...reports.slice(n / 2), ...reports.slice(0, n / 2)]),
    ]);
    const taken = [...first!, ...second!].filter((s) => s !== undefined);
    t.equal(taken.length, n, 'every sub task settled once');
    t.equal(taken.filter((s) => s.finished).length, 1, 'one finish');
    t.match(await tasks.findOne({ _id: 'D' as never }), { status: 'completed', completedItems: n });
  },
);
