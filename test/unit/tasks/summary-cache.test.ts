import t from 'tap';
import { SummaryCache } from '../../../services/tasks/summary-cache.js';
import type { SubTaskSummaryDoc } from '../../../services/tasks/models.js';

const summaries = (n: number, status = 'pending'): SubTaskSummaryDoc[] =>
  Array.from(
    { length: n },
    (_, i) =>
      ({
        _id: `s${i}`,
        prompt: 'p',
        platform: 'sandbox',
        mode: 'standard',
        status,
      }) as SubTaskSummaryDoc,
  );

t.test('a hit needs the same version', async (t) => {
  const cache = new SummaryCache();
  const v0 = summaries(2);
  cache.set('a', 0, v0);
  t.equal(cache.get('a', 0), v0);
  t.equal(cache.get('a', 1), undefined, 'a newer version is a miss');
  t.equal(cache.get('b', 0), undefined);
  const v1 = summaries(2, 'completed');
  cache.set('a', 1, v1);
  t.equal(cache.get('a', 1), v1);
  t.equal(cache.get('a', 0), undefined, 'the old version is gone');
});

t.test('least recently used tasks go first once the budget is spent', async (t) => {
  const cache = new SummaryCache({ maxSummaries: 10 });
  cache.set('a', 0, summaries(4));
  cache.set('b', 0, summaries(4));
  t.ok(cache.get('a', 0), 'a is now the most recently used');
  cache.set('c', 0, summaries(4));
  t.equal(cache.get('b', 0), undefined, 'b was evicted');
  t.ok(cache.get('a', 0));
  t.ok(cache.get('c', 0));
  cache.set('huge', 0, summaries(11));
  t.equal(cache.get('huge', 0), undefined, 'an entry above the whole budget is not cached');
  t.ok(cache.get('a', 0), 'and evicts nothing');
  cache.set('a', 1, summaries(7));
  t.equal(cache.get('c', 0), undefined, 'replacing an entry recounts its size');
  t.ok(cache.get('a', 1));
});

t.test('an entry expires after its maximum age, whatever the version says', async (t) => {
  // A process killed between a sub task's write and its task's version bump
  // leaves the version standing over a changed list.
  let now = 1_000;
  const cache = new SummaryCache({ maxAgeMs: 500, now: () => now });
  const v0 = summaries(2);
  cache.set('a', 0, v0, now - 100);
  now += 399;
  t.equal(cache.get('a', 0), v0, 'fresh within its age, counted from when it was read');
  now += 1;
  t.equal(cache.get('a', 0), undefined, 'expired at its maximum age');
  t.equal(cache.get('a', 0), undefined, 'and gone');
  cache.set('a', 0, summaries(2, 'completed'));
  t.equal(cache.get('a', 0)![0]!.status, 'completed', 'the next read refills it');
});
