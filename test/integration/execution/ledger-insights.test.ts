/**
 * A task's insights (discovered brands, citation opportunities) are summed
 * once, when it becomes final, and stored with it (in the background, after
 * the finishing write), against the
 * real MongoDB-wire server: what is stored is what a read would sum from the
 * sub tasks, and no answer is counted twice or left out, whether its report
 * comes twice, two batches race over the task, or a crash leaves its count to
 * the mender.
 */
import t, { type Test } from 'tap';
import mongoose from 'mongoose';
import { Ledger } from '../../../services/shared/subtasks/ledger.js';
import { taskModels, type TaskDoc } from '../../../services/shared/subtasks/models.js';
import { readVisibilityInputs } from '../../../services/shared/subtasks/visibility-inputs.js';
import { FinalInsights } from '../../../services/shared/subtasks/final-insights.js';
import { keywordGroups } from '../../../services/shared/brand/groups.js';
import { answerBrandFields } from '../../../services/shared/brand/mentions.js';
import { toStored, usableInsights } from '../../../services/shared/brand/stored-insights.js';
import { visibilityOf } from '../../../services/shared/brand/visibility.js';
import type { CompletedResult, SettleReport } from '../../../services/shared/contracts/report.js';
import type { Reference } from '../../../services/shared/contracts/answer.js';
import { mongoUrl, uniqueDbName } from '../../helpers/servers.js';
import { plainResult } from '../../helpers/results.js';

const conn = await mongoose
  .createConnection(mongoUrl(), { dbName: uniqueDbName('ledgerinsights') })
  .asPromise();
const models = taskModels(conn);
let now = 5_000;
const ledger = new Ledger(
  models,
  { now: () => now },
  { maxAttempts: 3, backoff: () => 1_000, claimBookkeepingMs: 10, settler: 'node-1#1' },
);
t.teardown(async () => {
  await ledger.close();
  await conn.dropDatabase();
  await conn.close();
});
const tasks = conn.collection('tasks');
const subtasks = conn.collection('subtasks');
const KEYWORDS = ['Acme|acme.com', 'Beta'];
const groups = keywordGroups(KEYWORDS);

const ref = (i: number): Reference => ({
  index: i,
  url: `https://review${i}.example/p${i}`,
  title: `Review ${i}`,
  site: '',
  icon: '',
});
/**
 * Answer `seq`: recommends Initech first, then Beta, or Acme on every third
 * (the user named: only the contrast counts); cites review site `seq % 3`
 * and retrieves two more.
 */
function answer(seq: number): CompletedResult {
  const second = seq % 3 === 0 ? 'Acme' : 'Beta';
  return {
    ...plainResult,
    answerContent: `The best tools:\n\n1. **Initech**: fast.\n2. **${second}**: cheap.\n3. **Hooli**: simple.\n`,
    referenceList: [ref(seq % 3), ref(3), ref(4)],
    citationList: [ref(seq % 3)],
  };
}

/** A processing task of `n` sub tasks watching Acme and Beta, all leased under `tok-<taskId>`. */
async function seed(taskId: string, n: number) {
  await tasks.insertOne({
    _id: taskId as never,
    userId: 7,
    keywords: KEYWORDS,
    status: 'processing',
    totalItems: n,
    completedItems: 0,
    failedItems: 0,
    version: 0,
  });
  await subtasks.insertMany(
    Array.from({ length: n }, (_, seq) => ({
      _id: `${taskId}-${seq}` as never,
      taskId,
      seq,
      prompt: `prompt ${seq % 4}`,
      platform: seq % 2 ? 'sandbox' : 'deepseek',
      channel: 'api',
      mode: 'standard',
      status: 'processing',
      attempts: 1,
      leaseToken: `tok-${taskId}`,
      leaseNode: 'node-1',
    })),
  );
}

const report = (taskId: string, seq: number): SettleReport => ({
  subTaskId: `${taskId}-${seq}`,
  taskId,
  token: `tok-${taskId}`,
  attempt: 1,
  result: answer(seq),
  proxyIp: '127.0.0.9',
  proxyKey: '127.0.0.1:3128',
});

/** The task as a read of its visibility finds it (with its stored insights). */
const taskOf = (taskId: string) =>
  models.Task.findOne({ _id: taskId }).select('+insights').lean<TaskDoc>();

/** The insights a read would sum from the stored sub tasks. */
async function summed(taskId: string) {
  return toStored(
    visibilityOf(groups, await readVisibilityInputs(models, taskId, { insights: true })),
  );
}

/** Each answer counted once: Initech in all `n`, the opportunities' answers those without Acme. */
function countedOnce(t: Test, taskId: string, task: TaskDoc, n: number) {
  const stored = usableInsights(task);
  t.ok(stored, `${taskId}: final, its insights stored`);
  const initech = stored!.discovered.find((d) => d.name === 'Initech');
  t.equal(initech?.answers, n, `${taskId}: Initech in every answer, each once`);
  t.equal(initech?.share, 1);
  const withoutAcme = Array.from({ length: n }, (_, seq) => seq).filter((seq) => seq % 3 !== 0);
  const review = (i: number) =>
    stored!.opportunities.find((o) => o.domain === `review${i}.example`);
  t.equal(
    review(1)?.answers,
    withoutAcme.filter((seq) => seq % 3 === 1).length,
    'review1: once per answer',
  );
  t.equal(
    review(2)?.answers,
    withoutAcme.filter((seq) => seq % 3 === 2).length,
    'review2: once per answer',
  );
  t.equal(review(3)?.retrievedAnswers, withoutAcme.length, 'review3, retrieved: once per answer');
}

t.test('a task finished by its settles stores the insights a read would sum', async (t) => {
  await seed('A', 6);
  await ledger.settle([0, 1, 2].map((seq) => report('A', seq)));
  t.equal((await taskOf('A'))!.insights, undefined, 'a running task has none stored');
  const settled = await ledger.settle([3, 4, 5].map((seq) => report('A', seq)));
  t.equal(settled.filter((s) => s?.finished).length, 1, 'one finish');
  await ledger.insightsStored();
  const task = (await taskOf('A'))!;
  t.equal(task.status, 'completed');
  t.strictSame(task.insights, await summed('A'), 'stored: the sum of the final sub tasks');
  countedOnce(t, 'A', task, 6);
  const plain = await models.Task.findOne({ _id: 'A' }).lean<TaskDoc>();
  t.equal(plain!.insights, undefined, 'left out of every other read');
  t.notOk(
    'insights' in (await models.Task.find({ userId: 7 }).lean<TaskDoc[]>())[0]!,
    'and of lists',
  );
});

t.test('reports sent twice and racing batches count each answer once', async (t) => {
  const n = 12;
  await seed('B', n);
  const reports = Array.from({ length: n }, (_, seq) => report('B', seq));
  // The same reports twice, split differently: a retried batch racing its first delivery.
  const [first, second] = await Promise.all([
    ledger.settle(reports),
    ledger.settle([...reports.slice(n / 2), ...reports.slice(0, n / 2)]),
  ]);
  t.equal([...first!, ...second!].filter((s) => s?.finished).length, 1, 'one finish');
  await ledger.insightsStored();
  const task = (await taskOf('B'))!;
  t.match(task, { status: 'completed', completedItems: n });
  t.strictSame(task.insights, await summed('B'));
  countedOnce(t, 'B', task, n);
  t.strictSame(await ledger.settle(reports.slice(0, 3)), [undefined, undefined, undefined]);
  await ledger.insightsStored();
  t.strictSame((await taskOf('B'))!.insights, task.insights, 'a late repeat changes nothing');
});

t.test(
  'a count lost in a crash: the mender finishes the task with every answer once',
  async (t) => {
    const n = 6;
    await seed('C', n);
    await ledger.settle([0, 1, 2, 3, 4].map((seq) => report('C', seq)));
    // Sub task 5 written final by a settler that died before counting it.
    now = 200_000;
    await subtasks.updateOne(
      { _id: 'C-5' as never },
      {
        $set: {
          status: 'completed',
          time: now - 1_000,
          uncounted: 'node-2#1',
          leaseToken: null,
          ...answer(5),
          ...answerBrandFields(groups, answer(5)),
        },
      },
    );
    t.match(await taskOf('C'), { status: 'processing', completedItems: 5 });
    t.equal((await taskOf('C'))!.insights, undefined);
    const mended = await ledger.mend('C', 0, (settler) => settler === 'node-1#1');
    t.match(mended, { done: true, finished: { taskId: 'C', status: 'completed' } });
    await ledger.insightsStored();
    const task = (await taskOf('C'))!;
    t.match(task, { status: 'completed', completedItems: n });
    t.strictSame(task.insights, await summed('C'));
    countedOnce(t, 'C', task, n);
    t.strictSame(await ledger.mend('C', 0, () => false), { done: true }, 'mended once');
    await ledger.insightsStored();
    t.strictSame((await taskOf('C'))!.insights, task.insights);
  },
);

t.test('a sum that fails is told, and the final task is summed on read', async (t) => {
  await seed('D', 1);
  const warned: string[] = [];
  const failing = new FinalInsights(
    models,
    () => Promise.reject(new Error('no groups')),
    (message, err) => warned.push(`${message}: ${(err as Error).message}`),
  );
  await tasks.updateOne({ _id: 'D' as never }, { $set: { status: 'completed' } });
  failing.store('D');
  await failing.idle();
  t.strictSame(warned, ['task D: insights not stored (its reads sum them): no groups']);
  t.equal((await taskOf('D'))!.insights, undefined, 'none stored');
  // A second sum of a task that has them writes nothing.
  const working = new FinalInsights(
    models,
    async () => groups,
    () => t.fail('no warning'),
  );
  working.store('D');
  await working.idle();
  const stored = (await taskOf('D'))!.insights;
  t.ok(stored, 'stored by the one that works');
  await subtasks.updateOne({ _id: 'D-0' as never }, { $set: { citationList: [ref(2)] } });
  working.store('D');
  await working.idle();
  t.strictSame((await taskOf('D'))!.insights, stored, 'written once, never over');
});
