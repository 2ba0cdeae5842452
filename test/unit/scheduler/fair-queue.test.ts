import t from 'tap';
import { queueItem as item } from '../../helpers/queue-items.js';
import { FairQueue } from '../../../services/scheduler/fair-queue.js';
import { type QueueItem } from '../../../services/shared/contracts/events.js';

const NOW = 1_700_000_000_000;
const all = (_item: QueueItem) => true;

/** Takes until empty (or `limit`), returning the ids in order. */
function drain(q: FairQueue, limit = Infinity, now = NOW, eligible = all): string[] {
  const out: string[] = [];
  while (out.length < limit) {
    const next = q.take(now, eligible);
    if (!next) break;
    out.push(next.id);
  }
  return out;
}

t.test('empty queue', async (t) => {
  const q = new FairQueue();
  t.equal(q.size, 0);
  t.equal(q.take(NOW, all), undefined);
  t.equal(q.has('x'), false);
  t.equal(q.remove('x'), undefined);
  t.strictSame([...q.items()], []);
});

t.test('one task comes out in seq order', async (t) => {
  const q = new FairQueue();
  for (const seq of [2, 0, 3, 1]) q.add(item('T', 1, seq));
  t.strictSame(drain(q), ['T-0', 'T-1', 'T-2', 'T-3']);
  t.equal(q.size, 0);
});

t.test("a small task of user B is not stuck behind user A's big batch", async (t) => {
  const q = new FairQueue();
  for (let seq = 0; seq < 500; seq++) q.add(item('A1', 1, seq));
  for (let seq = 0; seq < 3; seq++) q.add(item('B1', 2, seq));
  t.equal(q.size, 503);
  const order = drain(q);
  t.equal(order.length, 503);
  const positions = order.flatMap((id, i) => (id.startsWith('B1-') ? [i + 1] : []));
  t.strictSame(positions, [2, 4, 6], "B's items at positions 2, 4, 6");
  t.strictSame(order.slice(0, 7), ['A1-0', 'B1-0', 'A1-1', 'B1-1', 'A1-2', 'B1-2', 'A1-3']);
  t.strictSame(
    order.filter((id) => id.startsWith('A1-')),
    Array.from({ length: 500 }, (_, i) => `A1-${i}`),
    "A's items stay in seq order",
  );
});

t.test('a user who arrives later still gets every other turn', async (t) => {
  const q = new FairQueue();
  for (let seq = 0; seq < 10; seq++) q.add(item('A1', 1, seq));
  t.strictSame(drain(q, 3), ['A1-0', 'A1-1', 'A1-2']);
  for (let seq = 0; seq < 2; seq++) q.add(item('B1', 2, seq));
  t.strictSame(drain(q, 5), ['A1-3', 'B1-0', 'A1-4', 'B1-1', 'A1-5']);
});

t.test('round-robin across three users', async (t) => {
  const q = new FairQueue();
  for (let seq = 0; seq < 3; seq++) {
    q.add(item('A1', 1, seq));
    q.add(item('B1', 2, seq));
    q.add(item('C1', 3, seq));
  }
  t.strictSame(drain(q), ['A1-0', 'B1-0', 'C1-0', 'A1-1', 'B1-1', 'C1-1', 'A1-2', 'B1-2', 'C1-2']);
});

t.test('two tasks of one user alternate', async (t) => {
  const q = new FairQueue();
  for (let seq = 0; seq < 4; seq++) q.add(item('T1', 1, seq));
  for (let seq = 0; seq < 2; seq++) q.add(item('T2', 1, seq));
  t.strictSame(drain(q), ['T1-0', 'T2-0', 'T1-1', 'T2-1', 'T1-2', 'T1-3']);
});

t.test('users first, then their tasks', async (t) => {
  const q = new FairQueue();
  for (let seq = 0; seq < 3; seq++) q.add(item('A1', 1, seq));
  for (let seq = 0; seq < 3; seq++) q.add(item('A2', 1, seq));
  for (let seq = 0; seq < 3; seq++) q.add(item('B1', 2, seq));
  t.strictSame(drain(q, 8), ['A1-0', 'B1-0', 'A2-0', 'B1-1', 'A1-1', 'B1-2', 'A2-1', 'A1-2']);
  t.strictSame(drain(q), ['A2-2']);
});

t.test('notBefore is respected', async (t) => {
  const q = new FairQueue();
  q.add(item('T', 1, 0, { notBefore: NOW + 1000 }));
  q.add(item('T', 1, 1));
  q.add(item('U', 2, 0, { notBefore: NOW + 5000 }));
  t.strictSame(drain(q, Infinity, NOW), ['T-1'], 'only the due item');
  t.equal(q.size, 2);
  t.strictSame(drain(q, Infinity, NOW + 999), []);
  t.strictSame(drain(q, Infinity, NOW + 1000), ['T-0'], 'due exactly at notBefore');
  t.strictSame(drain(q, Infinity, NOW + 4999), []);
  t.strictSame(drain(q, Infinity, NOW + 5000), ['U-0']);
  t.equal(q.size, 0);
});

t.test('eligibility skips items without losing them', async (t) => {
  const q = new FairQueue();
  q.add(item('A1', 1, 0, { platform: 'chatgpt' }));
  q.add(item('A1', 1, 1, { platform: 'claude' }));
  q.add(item('B1', 2, 0, { platform: 'chatgpt' }));
  q.add(item('B1', 2, 1, { platform: 'claude' }));
  const seen: string[] = [];
  const onlyClaude = (i: QueueItem) => {
    seen.push(i.id);
    return i.platform === 'claude';
  };
  t.strictSame(drain(q, Infinity, NOW, onlyClaude), ['A1-1', 'B1-1']);
  t.ok(seen.includes('A1-0') && seen.includes('B1-0'), 'ineligible items were considered');
  t.equal(q.size, 2);
  t.equal(q.has('A1-0'), true);
  t.equal(q.has('B1-0'), true);
  t.equal(
    q.take(NOW, () => false),
    undefined,
    'nothing eligible',
  );
  t.equal(q.size, 2, 'still nothing lost');
  t.strictSame(drain(q), ['A1-0', 'B1-0']);
});

t.test('eligibility is not asked about items that are not due', async (t) => {
  const q = new FairQueue();
  q.add(item('T', 1, 0, { notBefore: NOW + 1 }));
  q.add(item('T', 1, 1));
  const asked: string[] = [];
  t.equal(
    q.take(NOW, (i) => {
      asked.push(i.id);
      return true;
    })?.id,
    'T-1',
  );
  t.strictSame(asked, ['T-1']);
});

t.test('add is idempotent by id', async (t) => {
  const q = new FairQueue();
  const first = item('T', 1, 0, { prompt: 'first' });
  q.add(first);
  q.add(item('T', 1, 0, { prompt: 'second' }));
  q.add(first);
  t.equal(q.size, 1);
  const got = q.take(NOW, all);
  t.equal(got, first, 'the first added object is kept');
  t.equal(got?.prompt, 'first');
  t.equal(q.take(NOW, all), undefined, 'no duplicate comes out');
});

t.test('size and has', async (t) => {
  const q = new FairQueue();
  q.add(item('T', 1, 0));
  q.add(item('T', 1, 1));
  q.add(item('U', 2, 0));
  t.equal(q.size, 3);
  t.equal(q.has('T-0'), true);
  t.equal(q.has('U-0'), true);
  t.equal(q.has('U-1'), false);
  q.take(NOW, all);
  t.equal(q.size, 2);
  t.equal(q.has('T-0'), false);
  q.remove('U-0');
  t.equal(q.size, 1);
  t.equal(q.has('U-0'), false);
});

t.test('items() lists everything queued', async (t) => {
  const q = new FairQueue();
  q.add(item('T', 1, 1));
  q.add(item('T', 1, 0));
  q.add(item('U', 2, 0));
  t.strictSame([...q.items()].map((i) => i.id).sort(), ['T-0', 'T-1', 'U-0']);
  q.take(NOW, all);
  t.strictSame([...q.items()].map((i) => i.id).sort(), ['T-1', 'U-0']);
  const one = [...q.items()].find((i) => i.id === 'U-0')!;
  one.waitingSince = 42;
  t.equal(q.remove('U-0')?.waitingSince, 42, 'items() yields the queued objects themselves');
});

t.test('remove', async (t) => {
  t.test('returns the item and is a no-op the second time', async (t) => {
    const q = new FairQueue();
    const it = item('T', 1, 0);
    q.add(it);
    t.equal(q.remove('T-0'), it);
    t.equal(q.remove('T-0'), undefined);
    t.equal(q.size, 0);
    t.equal(q.take(NOW, all), undefined);
  });

  t.test('removing the only task of the user before the cursor keeps the turn order', async (t) => {
    const q = new FairQueue();
    for (let seq = 0; seq < 3; seq++) {
      q.add(item('A1', 1, seq));
      q.add(item('B1', 2, seq));
      q.add(item('C1', 3, seq));
    }
    t.strictSame(drain(q, 2), ['A1-0', 'B1-0'], 'next turn is C');
    for (let seq = 1; seq < 3; seq++) q.remove(`A1-${seq}`);
    t.strictSame(drain(q), ['C1-0', 'B1-1', 'C1-1', 'B1-2', 'C1-2']);
  });

  t.test('removing the user whose turn is next passes the turn on', async (t) => {
    const q = new FairQueue();
    for (let seq = 0; seq < 2; seq++) {
      q.add(item('A1', 1, seq));
      q.add(item('B1', 2, seq));
      q.add(item('C1', 3, seq));
    }
    t.strictSame(drain(q, 1), ['A1-0'], 'next turn is B');
    q.remove('B1-0');
    q.remove('B1-1');
    t.strictSame(drain(q), ['C1-0', 'A1-1', 'C1-1']);
  });

  t.test('removing the last user in order wraps around', async (t) => {
    const q = new FairQueue();
    for (let seq = 0; seq < 2; seq++) {
      q.add(item('A1', 1, seq));
      q.add(item('B1', 2, seq));
    }
    t.strictSame(drain(q, 1), ['A1-0'], 'next turn is B');
    q.remove('B1-0');
    q.remove('B1-1');
    t.strictSame(drain(q), ['A1-1']);
  });

  t.test('removing a task before the task cursor keeps the task turn order', async (t) => {
    const q = new FairQueue();
    for (let seq = 0; seq < 3; seq++) {
      q.add(item('T1', 1, seq));
      q.add(item('T2', 1, seq));
      q.add(item('T3', 1, seq));
    }
    t.strictSame(drain(q, 2), ['T1-0', 'T2-0'], 'next turn is T3');
    q.remove('T1-1');
    q.remove('T1-2');
    t.strictSame(drain(q), ['T3-0', 'T2-1', 'T3-1', 'T2-2', 'T3-2']);
  });

  t.test('removing everything then adding again works', async (t) => {
    const q = new FairQueue();
    q.add(item('A1', 1, 0));
    q.add(item('B1', 2, 0));
    t.strictSame(drain(q, 1), ['A1-0']);
    q.remove('B1-0');
    t.equal(q.size, 0);
    q.add(item('C1', 3, 0));
    q.add(item('D1', 4, 0));
    t.strictSame(drain(q), ['C1-0', 'D1-0']);
  });
});

t.test('a re-added retry item keeps seq order', async (t) => {
  const q = new FairQueue();
  for (let seq = 0; seq < 4; seq++) q.add(item('T', 1, seq));
  const first = q.take(NOW, all)!;
  t.equal(first.id, 'T-0');
  q.add({ ...first, attempts: 1, notBefore: NOW + 100 });
  t.equal(q.size, 4);
  t.strictSame(drain(q, Infinity, NOW), ['T-1', 'T-2', 'T-3'], 'not due yet');
  q.add(item('T', 1, 5));
  q.add(item('T', 1, 4));
  t.strictSame(drain(q, Infinity, NOW + 100), ['T-0', 'T-4', 'T-5'], 'retry first again, by seq');
});

t.test('a retry in the middle goes back to its seq place', async (t) => {
  const q = new FairQueue();
  for (const seq of [0, 1, 3, 4]) q.add(item('T', 1, seq));
  q.add(item('T', 1, 2, { attempts: 2 }));
  t.strictSame(drain(q), ['T-0', 'T-1', 'T-2', 'T-3', 'T-4']);
});
