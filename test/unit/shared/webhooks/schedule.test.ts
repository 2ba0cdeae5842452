import t from 'tap';
import { loadConfig } from '../../../../services/shared/config.js';
import type { Clock } from '../../../../services/shared/clock.js';
import {
  afterAttempt,
  attemptLeaseMs,
  isDue,
  isSuccess,
  maxAttempts,
  type Verdict,
} from '../../../../services/shared/webhooks/schedule.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** A clock the test moves by hand. */
function manualClock(start: number): Clock & { set(ms: number): void } {
  let now = start;
  return { now: () => now, set: (ms) => (now = ms) };
}

t.test('the default schedule is the spec: seven retries, 15 s to 12 h', async (t) => {
  const { retryDelaysMs } = loadConfig({}).callbacks;
  t.same(retryDelaysMs, [15 * SECOND, MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 4 * HOUR, 12 * HOUR]);
  t.equal(maxAttempts(retryDelaysMs), 8, 'the first attempt plus seven retries');
});

t.test(
  'a receiver that always fails: attempt times follow the schedule, FAILED after attempt 8',
  async (t) => {
    const delays = loadConfig({}).callbacks.retryDelaysMs;
    const clock = manualClock(1_000_000);
    const attempts: number[] = [];
    let state: { status: string; nextAttemptAt: number | null; leaseExpiresAt: null } = {
      status: 'PENDING',
      nextAttemptAt: clock.now(),
      leaseExpiresAt: null,
    };
    // Step time to every moment the delivery becomes due, as the poller would, and take each attempt.
    for (let n = 1; n <= 20 && state.status === 'PENDING'; n++) {
      clock.set(state.nextAttemptAt!);
      t.ok(isDue(state as never, clock.now()), `attempt ${n} due at its time`);
      t.notOk(isDue(state as never, clock.now() - 1), `attempt ${n} not due a moment earlier`);
      attempts.push(clock.now());
      const verdict: Verdict = afterAttempt(n, false, clock.now(), delays);
      state = {
        status: verdict.status,
        nextAttemptAt: verdict.status === 'PENDING' ? verdict.nextAttemptAt : null,
        leaseExpiresAt: null,
      };
    }
    t.equal(attempts.length, 8);
    t.same(
      attempts.map((at, i) => (i === 0 ? 0 : at - attempts[i - 1]!)),
      [0, 15 * SECOND, MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 4 * HOUR, 12 * HOUR],
    );
    t.equal(state.status, 'FAILED');
    for (const later of [0, HOUR, 365 * 24 * HOUR]) {
      t.notOk(isDue(state as never, clock.now() + later), 'nothing is due after FAILED');
    }
  },
);

t.test(
  'success ends the schedule at any attempt; the delay runs from the end of the attempt',
  async (t) => {
    const delays = [100, 200];
    t.same(afterAttempt(1, true, 5_000, delays), { status: 'SUCCEEDED' });
    t.same(afterAttempt(3, true, 5_000, delays), { status: 'SUCCEEDED' });
    t.same(afterAttempt(1, false, 5_000, delays), { status: 'PENDING', nextAttemptAt: 5_100 });
    t.same(afterAttempt(2, false, 7_000, delays), { status: 'PENDING', nextAttemptAt: 7_200 });
    t.same(afterAttempt(3, false, 9_000, delays), { status: 'FAILED' });
    t.notOk(isDue({ status: 'SUCCEEDED', nextAttemptAt: null, leaseExpiresAt: null }, 1e15));
  },
);

t.test('only 2xx is success', async (t) => {
  for (const s of [200, 201, 204, 299]) t.ok(isSuccess(s), String(s));
  for (const s of [null, 100, 199, 300, 301, 302, 307, 308, 400, 404, 429, 500, 503]) {
    t.notOk(isSuccess(s), String(s));
  }
});

t.test('a lapsed sending lease makes the delivery due again', async (t) => {
  const sending = { status: 'SENDING' as const, nextAttemptAt: null, leaseExpiresAt: 10_000 };
  t.notOk(isDue(sending, 9_999));
  t.ok(isDue(sending, 10_000));
  t.ok(attemptLeaseMs(10_000, 30_000) > 40_000, 'a lease outlives the longest attempt');
});
