import t from 'tap';
import {
  cpuShares,
  loadedMemory,
  perPage,
  sumMemory,
} from '../../../../bench/pipeline/resources.js';

t.test('memory: sums, loaded medians at the most pages, per page', async (t) => {
  const m = (rss: number, pss: number) => ({ rss, pss, processes: 2, renderers: 1 });
  t.same(sumMemory([m(10, 5), m(20, 7)]), { rss: 30, pss: 12, processes: 4, renderers: 2 });
  t.same(sumMemory([]), { rss: 0, pss: 0, processes: 0, renderers: 0 });
  const loaded = loadedMemory([
    { m: m(100, 50), running: 4 },
    { m: m(900, 900), running: 2 },
    { m: m(300, 70), running: 4 },
    { m: m(200, 60), running: 4 },
    { m: m(1, 1), running: NaN },
  ]);
  t.equal(loaded.pages, 4);
  t.equal(loaded.samples, 3);
  t.same(loaded.median, { rss: 200, pss: 60, processes: 2, renderers: 1 });
  t.same(perPage(loaded.median, m(40, 20), 4), { rss: 40, pss: 10, processes: 0, renderers: 0 });
  t.equal(perPage(m(10, 10), m(0, 0), 0).rss, 10, 'no page running divides by one');
  const none = loadedMemory([{ m: m(5, 5), running: 0 }]);
  t.equal(none.pages, 0);
  t.equal(none.samples, 0);
  t.ok(Number.isNaN(none.median.rss), 'no loaded sample, no median');
});

t.test('CPU shares between two snapshots', async (t) => {
  const before = {
    at: 1000,
    self: { user: 1_000_000, system: 0 },
    machine: { busy: 1000, total: 2000 },
    trees: new Map([
      ['api', 100],
      ['scheduler', 50],
    ]),
  };
  const after = {
    at: 11_000,
    self: { user: 2_500_000, system: 500_000 },
    machine: { busy: 2600, total: 4000 },
    trees: new Map([
      ['api', 300],
      ['scheduler', 80],
      ['web1', 999],
    ]),
  };
  const c = cpuShares(before, after, 100);
  t.same(
    c.trees,
    [
      ['api', 2000],
      ['scheduler', 300],
    ],
    'a tree absent before is left out',
  );
  t.equal(c.selfMs, 2000);
  t.equal(c.machineBusy, 0.8);
  t.equal(c.outsideMs, 16_000 - 4300);
  t.equal(c.elapsedMs, 10_000);
  const idle = cpuShares(before, { ...before, at: 2000 }, 100);
  t.equal(idle.outsideMs, 0, 'never negative');
  t.equal(idle.machineBusy, 0);
});
