/**
 * Settling a crawler node's batch of reports, against the real MongoDB-wire
 * server: each report is taken or dropped on its own, the counters of every
 * task are right, and a task finished by the batch is reported once. A
 * failure settles without a read; a node's leases renew in one round trip.
 */
import t from 'tap';
import mongoose from 'mongoose';
import { Ledger } from '../../../services/shared/subtasks/ledger.js';
import { type SettleReport } from '../../../services/shared/contracts/report.js';
import { taskModels } from '../../../services/shared/subtasks/models.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';
import { plainResult } from '../../helpers/results.js';

const conn = await mongoose
  .createConnection(mongoUrl(), { dbName: uniqueDbName('ledgersettle'), monitorCommands: true })
  .asPromise();
/** The commands the driver sends to `subtasks` while `run` runs. */
async function subTaskCommands(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listen = (e: { commandName: string; command: Record<string, unknown> }) => {
    if (e.command[e.commandName] === 'subtasks') seen.push(e.commandName);
  };
  const client = conn.getClient();
  client.on('commandStarted', listen);
  try {
    await run();
  } finally {
    client.off('commandStarted', listen);
  }
  return seen;
}
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

/** A report on sub task `<taskId>-<seq>`, by default of its first attempt. */
const done = (id: string, token: string, attempt = 1): SettleReport => ({
  subTaskId: id,
  taskId: id.split('-')[0]!,
  token,
  attempt,
  result: plainResult,
  proxyIp: '127.0.0.9',
  proxyKey: '127.0.0.1:3128',
});
const broke = (id: string, token: string, retryable: boolean, attempt = 1): SettleReport => ({
  subTaskId: id,
  taskId: id.split('-')[0]!,
  token,
  attempt,
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
    broke('A-3', 'tok-A', true, 3),
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

t.test('a failure that carries its attempt is decided and written without a read', async (t) => {
  await seed('E', [1, 3, 2]);
  const commands = await subTaskCommands(async () => {
    const settled = await ledger.settle([
      { ...broke('E-0', 'tok-E', true), attempt: 1 },
      { ...broke('E-1', 'tok-E', true), attempt: 3 },
    ]);
    t.strictSame(
      settled.map((s) => s?.outcome),
      ['retry', 'failed'],
      'a retry below the limit, final at it',
    );
  });
  t.strictSame(
    commands,
    ['findAndModify', 'findAndModify', 'update'],
    'one write each, no read; then the final one’s uncounted mark taken off once it is counted',
  );

  const wrong = await subTaskCommands(async () => {
    const [s] = await ledger.settle([{ ...broke('E-2', 'tok-E', true), attempt: 1 }]);
    t.equal(s?.outcome, 'retry', 'decided with the stored attempt (2 of 3)');
  });
  t.strictSame(wrong, ['findAndModify', 'find', 'findAndModify'], 'a wrong number reads first');
  t.match(await subtasks.findOne({ _id: 'E-2' as never }), { status: 'pending', attempts: 2 });

  const [late] = await ledger.settle([{ ...broke('E-1', 'tok-E', true), attempt: 3 }]);
  t.equal(late, undefined, 'a late report is still dropped');
});

t.test('the web account of each attempt is recorded, so a retry can avoid it', async (t) => {
  await seed('W', [1, 1, 3]);
  const web = (r: SettleReport, accountId: string | null): SettleReport => ({ ...r, accountId });
  await ledger.settle([
    web(broke('W-0', 'tok-W', true), 'acc-1'),
    web(done('W-1', 'tok-W'), 'acc-2'),
    web(broke('W-2', 'tok-W', true, 3), 'acc-3'),
  ]);
  const byId = new Map((await subtasks.find().toArray()).map((d) => [String(d._id), d]));
  t.match(byId.get('W-0'), { status: 'pending', lastAccount: 'acc-1' });
  t.match(byId.get('W-1'), { status: 'completed', lastAccount: 'acc-2' });
  t.match(byId.get('W-2'), { status: 'failed', lastAccount: 'acc-3' });

  // The next attempt's lease expires: its report names no account and keeps the last one.
  await subtasks.updateOne(
    { _id: 'W-0' as never },
    { $set: { status: 'processing', attempts: 2, leaseToken: 'tok-W2' } },
  );
  await ledger.settle([
    {
      subTaskId: 'W-0',
      taskId: 'W',
      token: 'tok-W2',
      attempt: 2,
      failure: { status: 'failed', retryable: true, message: 'lease expired' },
    },
  ]);
  t.match(await subtasks.findOne({ _id: 'W-0' as never }), {
    status: 'pending',
    lastAccount: 'acc-1',
  });
});

t.test("a node's leases renew in one round trip; each answer is its own", async (t) => {
  await seed('G', [1, 1, 1]);
  await subtasks.updateOne({ _id: 'G-2' as never }, { $set: { leaseToken: 'tok-G2' } });
  const held = [
    { subTaskId: 'G-0', token: 'tok-G' },
    { subTaskId: 'G-1', token: 'tok-G' },
    { subTaskId: 'G-2', token: 'tok-G2' },
  ];
  const commands = await subTaskCommands(async () => {
    t.strictSame(await ledger.renewMany(held, 90_000), [true, true, true]);
  });
  t.strictSame(commands, ['update'], 'one command for two tokens');
  t.equal(
    await subtasks.countDocuments({ taskId: 'G', leaseExpiresAt: 90_000 }),
    3,
    'every lease extended',
  );

  await ledger.settle([done('G-1', 'tok-G')]);
  t.strictSame(
    await ledger.renewMany([...held, { subTaskId: 'G-0', token: 'stale' }], 95_000),
    [true, false, true, false],
    'a settled lease and a stale token are no longer held',
  );
  t.match(await subtasks.findOne({ _id: 'G-1' as never }), { status: 'completed' });
  t.strictSame(await ledger.renewMany([], 1), []);
});

t.test('an answer gets the brand fields of its task in its one write', async (t) => {
  await seed('K', [1]);
  await tasks.updateOne({ _id: 'K' as never }, { $set: { keywords: ['Acme|阿克米', 'Globex'] } });
  const answer = {
    ...plainResult,
    answerContent: 'Globex first, then **Acme**, and 阿克米 again.',
  };
  const expected = {
    mentions: [
      { keyword: 'Acme', count: 2, firstIndex: 21, position: 2, groupRank: 2 },
      { keyword: 'Globex', count: 1, firstIndex: 0, position: 1, groupRank: 1 },
    ],
    mentioned: true,
    sentiment: null,
  };
  const named = await subTaskCommands(async () => {
    await ledger.settle([
      { ...done('K-0', 'tok-K'), result: { ...answer, effectiveMode: 'standard' } },
    ]);
    await ledger.insightsStored();
  });
  t.strictSame(
    named,
    ['findAndModify', 'update', 'find'],
    "one write, then its uncounted mark taken off; the task's finish reads its sub tasks once, after, to store their insights",
  );
  t.match(await subtasks.findOne({ _id: 'K-0' as never }), expected);
});

t.test('a retry that finds no place fails naming the earlier attempt first', async (t) => {
  await seed('R', [1, 1]);
  await ledger.settle([
    {
      ...done('R-0', 'tok-R'),
      result: undefined,
      failure: { status: 'failed', retryable: true, message: 'control_missing: x deep-thinking' },
    },
  ]);
  t.match(await subtasks.findOne({ _id: 'R-0' as never }), { status: 'pending' });
  await ledger.failPending('R-0', {
    status: 'failed',
    retryable: false,
    message: 'no usable x web account',
  });
  t.match(await subtasks.findOne({ _id: 'R-0' as never }), {
    status: 'failed',
    errorMessage: 'control_missing: x deep-thinking (not retried: no usable x web account)',
  });
  await subtasks.updateOne(
    { _id: 'R-1' as never },
    { $set: { status: 'pending', errorMessage: null } },
  );
  await ledger.failPending('R-1', {
    status: 'failed',
    retryable: false,
    message: 'no live crawler node',
  });
  t.match(await subtasks.findOne({ _id: 'R-1' as never }), {
    errorMessage: 'no live crawler node',
  });
});
