import t from 'tap';
import { hash53, HashIds } from '../../../services/shared/brand/hash-ids.js';

t.test('hash53: a safe integer, never 0, the same for the same string', async (t) => {
  for (const s of ['', 'a', 'Initech', '斯塔克', 'https://www.example.com/a?b=c']) {
    const h = hash53(s);
    t.ok(Number.isSafeInteger(h) && h > 0, `${JSON.stringify(s)}: ${h}`);
    t.equal(hash53(s.slice()), h);
  }
  t.not(hash53('ab'), hash53('ba'), 'order counts');
  t.not(hash53('a'), hash53('a\u0000'), 'length counts');
});

t.test('hash53: 200,000 URLs and names without a collision, high bits used', async (t) => {
  const seen = new Set<number>();
  let high = 0;
  for (let i = 0; i < 100_000; i++) {
    seen.add(hash53(`https://site${i % 97}.example/article/${i}`));
    const h = hash53(`Brand ${i}`);
    seen.add(h);
    if (h >= 2 ** 52) high++;
  }
  t.equal(seen.size, 200_000);
  t.ok(high > 40_000 && high < 60_000, `about half have the top bit: ${high}`);
});

t.test('HashIds: dense ids in first-seen order, kept through growth', async (t) => {
  const ids = new HashIds();
  const hashes = Array.from({ length: 5_000 }, (_, i) => hash53(`name ${i}`));
  t.equal(ids.get(hashes[0]!), -1, 'none before');
  t.ok(
    hashes.every((h, i) => ids.id(h) === i),
    'ids 0, 1, … on first sight',
  );
  t.equal(ids.size, 5_000);
  t.ok(
    hashes.every((h, i) => ids.id(h) === i && ids.get(h) === i),
    'every id the same after the table grew',
  );
  t.equal(ids.get(hash53('another')), -1);
  t.equal(ids.size, 5_000, 'get gives no id');
});
