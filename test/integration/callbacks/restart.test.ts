/**
 * Callback timers live in MongoDB: a callbacks process killed between two
 * attempts and started again sends the next attempt on time and nothing
 * twice; two callbacks processes side by side send every attempt once.
 * Every role runs in its own child process over NATS.
 */
import t from 'tap';
import { startCluster } from '../../helpers/cluster-processes.js';
import { startReceiver } from '../../../bench/webhook-receiver.js';
import { until } from '../../helpers/wait.js';

// Long enough for a process start on a busy 2-core machine: with Chromium tests beside it, a CI
// run saw a callbacks node take 32 s to be ready.
const LONG_DELAY_MS = 45_000;
const POLL_MS = 50;
/**
 * How late after its due time an attempt still counts as on time: a poll, plus
 * room for a process that has just started on a busy 2-core machine (a CI run
 * saw 1.2 s). A timer lost or restarted by the restart would be LONG_DELAY_MS late.
 */
const ON_TIME_SLACK_MS = POLL_MS + 2_500;

interface Stored {
  status: string;
  attempts: { attempt: number; at: number; latencyMs: number | null; httpStatus: number | null }[];
}

t.setTimeout(300_000);

t.test('kill -9 between attempts, restart, then two instances together', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const c = await startCluster(t, {
    schedulers: 0,
    crawlers: 0,
    sandboxLatencyMs: 20,
    env: {
      CALLBACK_RETRY_DELAYS_MS: `200,${LONG_DELAY_MS},200,200,200,200,200`,
      CALLBACK_POLL_MS: String(POLL_MS),
      // The receiver answers at once; short timeouts only bound a hung test,
      // and a busy machine must not turn a slow answer into a failed attempt.
      CALLBACK_CONNECT_TIMEOUT_MS: '5000',
      CALLBACK_READ_TIMEOUT_MS: '5000',
      CALLBACK_ALLOW_CIDRS: '127.0.0.0/8',
    },
  });
  await Promise.all([c.startNode('exec', 'scheduler,crawler'), c.startNode('cb-1', 'callbacks')]);
  const conn = await c.db();
  const stored = async (taskId: string) =>
    (await conn.collection('deliveries').findOne({ _id: taskId as never })) as Stored | null;
  const platforms = [{ platform: 'sandbox', mode: 'standard' }];

  // Fails three times: attempt 3 waits LONG_DELAY_MS, and the process dies in that pause.
  const taskId = await c.submit({
    prompts: ['q'],
    platforms,
    callbackUrl: receiver.plan('/restart', ['500', '500', '500']),
  });
  const two = await until(
    'two attempts',
    async () => {
      const d = await stored(taskId);
      return d && d.attempts.length === 2 && d.status === 'PENDING' ? d : undefined;
    },
    60_000,
    20,
  );
  await c.nodes.get('cb-1')!.stop('SIGKILL');
  const second = two.attempts[1]!;
  const due = second.at + (second.latencyMs ?? 0) + LONG_DELAY_MS;
  await c.startNode('cb-1-again', 'callbacks');
  const readyAt = Date.now();
  t.ok(readyAt < due, `restarted within the pause (${due - readyAt} ms to spare)`);

  const done = await until(
    'the callback to succeed',
    async () => {
      const d = await stored(taskId);
      return d?.status === 'SUCCEEDED' ? d : undefined;
    },
    60_000,
  );
  t.same(
    done.attempts.map((a) => [a.attempt, a.httpStatus]),
    [
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 200],
    ],
  );
  const requests = receiver.requestsTo('/restart');
  t.equal(requests.length, 4, 'one request per attempt: none lost, none doubled');
  const third = requests[2]!.at;
  t.ok(third >= due - 20, `attempt 3 not early (${third - due} ms after due)`);
  t.ok(third <= Math.max(due, readyAt) + ON_TIME_SLACK_MS, `attempt 3 on time (${third - due} ms)`);

  // A second instance beside the first: every attempt still goes out once.
  await c.startNode('cb-2', 'callbacks');
  const tasks: string[] = [];
  for (let i = 0; i < 6; i++) {
    tasks.push(
      await c.submit({
        prompts: [`q${i}`],
        platforms,
        callbackUrl: receiver.plan(`/pair-${i}`, ['500']),
      }),
    );
  }
  for (const [i, id] of tasks.entries()) {
    const d = await until(`callback ${i}`, async () => {
      const s = await stored(id);
      return s?.status === 'SUCCEEDED' ? s : undefined;
    });
    t.same(
      d.attempts.map((a) => [a.attempt, a.httpStatus]),
      [
        [1, 500],
        [2, 200],
      ],
      `task ${i}`,
    );
  }
  await new Promise((r) => setTimeout(r, 500));
  t.same(
    tasks.map((_, i) => receiver.requestsTo(`/pair-${i}`).length),
    tasks.map(() => 2),
    'two requests per task, no duplicates',
  );
});
