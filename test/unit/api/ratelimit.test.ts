import t from 'tap';
import { RateLimiter } from '../../../services/api/ratelimit.js';

function fakeClock(start = 0) {
  const clock = {
    t: start,
    now: () => clock.t,
  };
  return clock;
}

function bucketCount(limiter: RateLimiter): number {
  return (limiter as any).buckets.size;
}

t.test('a full burst is allowed, then the next take waits', async (t) => {
  const clock = fakeClock(1_000_000);
  const limiter = new RateLimiter(2, 3, clock);
  t.equal(limiter.take('u'), 0);
  t.equal(limiter.take('u'), 0);
  t.equal(limiter.take('u'), 0);
  t.equal(limiter.take('u'), 0.5, 'one token takes 1/2 s at 2 per second');
  t.equal(limiter.take('u'), 0.5, 'a denied take consumes nothing');
});

t.test('tokens refill over time', async (t) => {
  const clock = fakeClock();
  const limiter = new RateLimiter(2, 3, clock);
  for (let i = 0; i < 3; i++) limiter.take('u');
  clock.t += 250;
  t.equal(limiter.take('u'), 0.25, 'half a token there, the other half in 1/4 s');
  clock.t += 250;
  t.equal(limiter.take('u'), 0, 'a whole token after 1/2 s');
  t.equal(limiter.take('u'), 0.5);
  clock.t += 1000;
  t.equal(limiter.take('u'), 0, 'two tokens after 1 s');
  t.equal(limiter.take('u'), 0);
  t.equal(limiter.take('u'), 0.5);
});

t.test('refill stops at the burst size', async (t) => {
  const clock = fakeClock();
  const limiter = new RateLimiter(1, 2, clock);
  limiter.take('u');
  clock.t += 3_600_000;
  t.equal(limiter.take('u'), 0);
  t.equal(limiter.take('u'), 0);
  t.equal(limiter.take('u'), 1, 'no more than the burst after a long idle time');
});

t.test('slow rates give long waits', async (t) => {
  const clock = fakeClock();
  const limiter = new RateLimiter(0.25, 1, clock);
  t.equal(limiter.take('u'), 0);
  t.equal(limiter.take('u'), 4);
  clock.t += 1000;
  t.equal(limiter.take('u'), 3);
});

t.test('separate keys are independent', async (t) => {
  const clock = fakeClock();
  const limiter = new RateLimiter(1, 1, clock);
  t.equal(limiter.take('user:1'), 0);
  t.equal(limiter.take('user:1'), 1);
  t.equal(limiter.take('user:2'), 0);
  t.equal(limiter.take('ip:127.0.0.1'), 0);
  t.equal(limiter.take('user:2'), 1);
  t.equal(limiter.take('user:1'), 1, 'other keys did not refill user:1');
});

t.test('a clock that steps back gives no extra tokens', async (t) => {
  const clock = fakeClock(10_000);
  const limiter = new RateLimiter(1, 1, clock);
  t.equal(limiter.take('u'), 0);
  clock.t = 5_000;
  t.equal(limiter.take('u'), 1);
});

t.test('idle full buckets are forgotten when maxKeys is reached', async (t) => {
  const clock = fakeClock();
  // 1 token per second, burst 2: an idle bucket is full again after 2 s.
  const limiter = new RateLimiter(1, 2, clock, 2);
  limiter.take('a');
  limiter.take('a');
  limiter.take('b');
  t.equal(bucketCount(limiter), 2);

  clock.t = 1999;
  t.equal(limiter.take('b'), 0, 'b has 1.999 tokens');
  t.equal(limiter.take('c'), 0, 'a new key is always served');
  t.equal(bucketCount(limiter), 2, 'nothing was full, so the longest-known key (a) made room');
  t.equal(limiter.take('b'), 0, 'b kept its partial bucket (0.999 + refill)');
  t.ok(limiter.take('b') > 0, 'and is now empty: it was not reset to full');

  clock.t = 1999 + 2000;
  t.equal(limiter.take('d'), 0);
  t.equal(bucketCount(limiter), 1, 'b and c are full again and forgotten');

  clock.t += 1000;
  t.equal(limiter.take('e'), 0);
  t.equal(bucketCount(limiter), 2, 'below maxKeys nothing is swept');
  t.equal(limiter.take('e'), 0);
  t.equal(limiter.take('e'), 1, 'e keeps its own state');
});

t.test('under maxKeys every bucket is kept', async (t) => {
  const clock = fakeClock();
  const limiter = new RateLimiter(1, 1, clock);
  for (let i = 0; i < 50; i++) limiter.take(`k${i}`);
  clock.t += 60_000;
  limiter.take('another');
  t.equal(bucketCount(limiter), 51);
});
