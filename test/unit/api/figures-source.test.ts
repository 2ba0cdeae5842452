import t from 'tap';
import type { FiguresSnapshot } from '../../../services/api/metrics/families.js';
import { FiguresSource } from '../../../services/api/metrics/figures-source.js';

const empty: FiguresSnapshot = { tasks: null, callbacks: null, crawlers: null, accounts: null };

function source(keepMs: number) {
  let now = 0;
  let gatherings = 0;
  let finish: () => void = () => undefined;
  const figures = new FiguresSource(
    () => {
      gatherings += 1;
      return new Promise((resolve) => (finish = () => resolve(empty)));
    },
    keepMs,
    { now: () => now },
  );
  return {
    figures,
    gatherings: () => gatherings,
    finish: () => finish(),
    advance: (ms: number) => void (now += ms),
  };
}

t.test('the asks of one scrape share the gathering under way, even with keepMs 0', async (t) => {
  const s = source(0);
  const asks = Array.from({ length: 11 }, () => s.figures.snapshot());
  s.finish();
  await Promise.all(asks);
  t.equal(s.gatherings(), 1);
  const next = s.figures.snapshot();
  t.equal(s.gatherings(), 2, 'a finished gathering is not kept with keepMs 0');
  s.finish();
  await next;
});

t.test('a finished gathering is kept for keepMs from its end', async (t) => {
  const s = source(5000);
  const first = s.figures.snapshot();
  s.advance(3000);
  s.finish();
  await first;
  s.advance(4999);
  t.equal(await s.figures.snapshot(), empty);
  t.equal(s.gatherings(), 1, 'fresh: counted from the end of the gathering');
  s.advance(1);
  const next = s.figures.snapshot();
  t.equal(s.gatherings(), 2, 'stale after keepMs');
  s.finish();
  await next;
});
