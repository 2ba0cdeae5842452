import t from 'tap';
import { Renewals, type RenewableLease } from '../../../crawler/renewals.js';

const lease = (n: number, leaseMs = 100): RenewableLease => ({
  subTaskId: `s${n}`,
  token: 'tok',
  leaseMs,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('one call renews every lease held; a refused one is dropped and told once', async (t) => {
  const calls: string[][] = [];
  const lost: string[] = [];
  const r = new Renewals<RenewableLease>(
    async (ls) => {
      calls.push(ls.map((l) => l.subTaskId));
      return ls.map((l) => l.subTaskId !== 's2');
    },
    () => undefined,
  );
  const [a, b, c] = [lease(1), lease(2), lease(3)];
  for (const l of [a, b, c]) r.add(l, () => lost.push(l.subTaskId));
  await r.tick();
  await r.tick();
  t.strictSame(calls, [
    ['s1', 's2', 's3'],
    ['s1', 's3'],
  ]);
  t.strictSame(lost, ['s2']);
  t.equal(r.size, 2);
  r.delete(a);
  r.delete(c);
  t.equal(r.size, 0);
  await r.tick();
  t.equal(calls.length, 2, 'nothing held: no call');
});

t.test('the timer ticks at half the shortest lease and stops when none is held', async (t) => {
  let calls = 0;
  const r = new Renewals<RenewableLease>(
    async (ls) => {
      calls += 1;
      return ls.map(() => true);
    },
    () => undefined,
  );
  const long = lease(1, 10_000);
  const short = lease(2, 200);
  r.add(long, () => undefined);
  r.add(short, () => undefined);
  await sleep(550);
  t.ok(calls >= 2 && calls <= 6, `about one call per 100 ms (${calls})`);
  r.delete(short);
  r.delete(long);
  const after = calls;
  await sleep(300);
  t.equal(calls, after, 'no timer once nothing is held');
});

t.test('a failed call is logged and retried at the next tick; calls never overlap', async (t) => {
  const warnings: string[] = [];
  let fail = true;
  let inFlight = 0;
  let overlapped = false;
  const r = new Renewals<RenewableLease>(
    async (ls) => {
      inFlight += 1;
      overlapped ||= inFlight > 1;
      await sleep(20);
      inFlight -= 1;
      if (fail) throw new Error('tasks node down');
      return ls.map(() => true);
    },
    (message) => warnings.push(message),
  );
  const lost: string[] = [];
  r.add(lease(1), () => lost.push('s1'));
  await Promise.all([r.tick(), r.tick()]);
  t.strictSame(warnings, ['renewing 1 lease(s) failed:']);
  fail = false;
  await r.tick();
  t.equal(overlapped, false);
  t.strictSame(lost, [], 'a failed call loses no lease');
  r.stop();
});
