import t from 'tap';
import { backoffDelay, type BackoffOptions } from '../../../../services/shared/subtasks/backoff.js';

const o: BackoffOptions = { baseMs: 1000, maxMs: 30_000, jitter: 0 };

t.test('exponential doubling from the base, no jitter', async (t) => {
  t.equal(backoffDelay(1, o), 1000);
  t.equal(backoffDelay(2, o), 2000);
  t.equal(backoffDelay(3, o), 4000);
  t.equal(backoffDelay(4, o), 8000);
  t.equal(backoffDelay(5, o), 16_000);
});

t.test('attempt 0 and below count as the first attempt', async (t) => {
  t.equal(backoffDelay(0, o), 1000);
  t.equal(backoffDelay(-3, o), 1000);
});

t.test('capped at maxMs', async (t) => {
  t.equal(backoffDelay(6, o), 30_000, '32 s capped to 30 s');
  t.equal(backoffDelay(7, o), 30_000);
  t.equal(backoffDelay(100, o), 30_000);
  t.equal(backoffDelay(1, { baseMs: 5000, maxMs: 3000, jitter: 0 }), 3000, 'base above max');
  t.equal(backoffDelay(3, { baseMs: 1000, maxMs: 4000, jitter: 0 }), 4000, 'exactly max');
});

t.test('jitter 0 is deterministic whatever random returns', async (t) => {
  t.equal(
    backoffDelay(3, o, () => 0),
    4000,
  );
  t.equal(
    backoffDelay(3, o, () => 0.73),
    4000,
  );
  t.equal(
    backoffDelay(3, o, () => 1),
    4000,
  );
  for (let i = 0; i < 20; i++) t.equal(backoffDelay(2, o), 2000);
});

t.test('jitter bounds with an injected random', async (t) => {
  const j: BackoffOptions = { baseMs: 1000, maxMs: 30_000, jitter: 0.5 };
  t.equal(
    backoffDelay(3, j, () => 0),
    2000,
    'random 0: lower bound exp·(1 − jitter)',
  );
  t.equal(
    backoffDelay(3, j, () => 1),
    4000,
    'random 1: upper bound exp',
  );
  t.equal(
    backoffDelay(3, j, () => 0.5),
    3000,
    'midpoint',
  );
  const full: BackoffOptions = { baseMs: 1000, maxMs: 30_000, jitter: 1 };
  t.equal(
    backoffDelay(2, full, () => 0),
    0,
    'full jitter can reach 0',
  );
  t.equal(
    backoffDelay(2, full, () => 1),
    2000,
  );
  t.equal(
    backoffDelay(10, j, () => 0),
    15_000,
    'jitter applies to the capped delay',
  );
  t.equal(
    backoffDelay(10, j, () => 1),
    30_000,
  );
});

t.test('result is a whole number of milliseconds within bounds (Math.random)', async (t) => {
  const j: BackoffOptions = { baseMs: 333, maxMs: 10_000, jitter: 0.3 };
  for (let attempt = 1; attempt <= 8; attempt++) {
    const exp = Math.min(10_000, 333 * 2 ** (attempt - 1));
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(attempt, j);
      if (!Number.isInteger(d) || d < Math.round(exp * 0.7) || d > Math.round(exp)) {
        t.fail(`attempt ${attempt}: ${d} outside [${exp * 0.7}, ${exp}]`);
      }
    }
  }
  t.pass('all within bounds');
});
