/**
 * The drift sampler (replicas/common/drift-sample.ts): a seed always draws the
 * same combination, no combination holds two drifts of one exclusive group,
 * and the pairwise set makes every compatible pair meet.
 */
import t from 'tap';
import {
  compatible,
  drawDrifts,
  driftsFor,
  drawSome,
  pairwiseDrifts,
  shareDrifts,
  STREAM_LOSS,
} from '../../../replicas/common/drift-sample.js';
import { driftsOf, type CallFrom, type Drift } from '../../../replicas/common/drift.js';

const FROMS: CallFrom[] = ['page', 'worker'];

const allCompatible = (combo: readonly string[]) =>
  combo.every((a, i) => combo.slice(i + 1).every((b) => compatible(a as never, b as never)));

t.test('a seed draws one combination, the same every time', async (t) => {
  for (const from of FROMS)
    for (let seed = 0; seed < 200; seed++) {
      const combo = drawDrifts(seed, from);
      t.same(drawDrifts(seed, from), combo);
      t.ok(combo.length >= 2, `seed ${seed}: at least two drifts`);
      t.ok(allCompatible(combo), `seed ${seed}: no two drifts of one group (${combo.join(', ')})`);
      t.ok(
        combo.every((d) => driftsFor(from).includes(d)),
        `seed ${seed}: only drifts a ${from}-call replica can show`,
      );
    }
});

t.test('seeds draw different combinations, and every drift is drawn', async (t) => {
  const seen = new Set<string>();
  const drawn = new Set<string>();
  for (let seed = 0; seed < 200; seed++) {
    const combo = drawDrifts(seed, 'page');
    seen.add(combo.join(','));
    combo.forEach((d) => drawn.add(d));
  }
  t.ok(seen.size > 40, `${seen.size} different combinations in 200 seeds`);
  t.same([...drawn].sort(), [...driftsFor('page')].sort());
});

t.test(
  'the pairwise set: every compatible pair meets, every combination is showable',
  async (t) => {
    for (const from of FROMS) {
      const combos = pairwiseDrifts(from);
      const all = driftsFor(from);
      for (const combo of combos) t.ok(allCompatible(combo), combo.join(', '));
      for (const [i, a] of all.entries())
        for (const b of all.slice(i + 1))
          if (compatible(a, b))
            t.ok(
              combos.some((c) => c.includes(a) && c.includes(b)),
              `${from}: ${a} meets ${b}`,
            );
      t.ok(combos.length <= 24, `${from}: ${combos.length} combinations`);
      // Pairs of drifts that keep the stream whole meet where every ask must answer.
      const lossless = combos.filter((c) => !c.some((d) => STREAM_LOSS.includes(d)));
      for (const [i, a] of all.entries())
        for (const b of all.slice(i + 1))
          if (compatible(a, b) && ![a, b].some((d) => STREAM_LOSS.includes(d)))
            t.ok(
              lossless.some((c) => c.includes(a) && c.includes(b)),
              `${from}: ${a} meets ${b} with the stream whole`,
            );
    }
  },
);

t.test('half the drawn combinations keep the stream whole', async (t) => {
  let whole = 0;
  for (let seed = 0; seed < 400; seed++)
    if (!drawDrifts(seed, 'page').some((d) => STREAM_LOSS.includes(d))) whole++;
  t.ok(whole > 160 && whole < 240, `${whole} of 400`);
});

t.test('drifts of one exclusive group never go together', async (t) => {
  t.notOk(compatible('call_in_worker', 'call_in_page'));
  t.notOk(compatible('renamed_classes', 'renamed_classes'));
  t.ok(compatible('renamed_classes', 'slow_first_byte'));
});

t.test(
  'shared drifts: each on as many sites as asked, dealt evenly, the same for a seed',
  async (t) => {
    const sites = [
      { name: 'a', callFrom: 'page' as const },
      { name: 'b', callFrom: 'worker' as const },
      { name: 'c', callFrom: 'page' as const },
      { name: 'd', callFrom: 'page' as const },
      { name: 'e', callFrom: 'page' as const },
    ];
    const drifts: Drift[] = ['slow_first_byte', 'call_in_worker', 'call_in_page', 'menu_controls'];
    const met = new Map<string, Set<Drift>>(sites.map((s) => [s.name, new Set()]));
    for (let seed = 0; seed < 50; seed++) {
      const dealt = shareDrifts(seed, sites, drifts, 2);
      t.same(shareDrifts(seed, sites, drifts, 2), dealt, `seed ${seed}: the same again`);
      for (const d of drifts) {
        const on = sites.filter((s) => dealt.get(s.name)!.has(d));
        const able = sites.filter((s) => driftsOf(s.callFrom).includes(d)).length;
        t.equal(on.length, Math.min(2, able), `seed ${seed}: ${d} on two sites, or all that can`);
        t.ok(
          on.every((s) => driftsOf(s.callFrom).includes(d)),
          `seed ${seed}: ${d} only where it can show`,
        );
        for (const s of on) met.get(s.name)!.add(d);
      }
      const counts = sites.map((s) => dealt.get(s.name)!.size);
      t.ok(Math.max(...counts) - Math.min(...counts) <= 2, `seed ${seed}: evenly (${counts})`);
    }
    for (const s of sites)
      t.same(
        [...met.get(s.name)!].sort(),
        drifts.filter((d) => driftsOf(s.callFrom).includes(d)).sort(),
        `over seeds, ${s.name} meets every drift it can show`,
      );
  },
);

t.test(
  'drawSome: n of the items in their order, the same for a seed, each drawn over seeds',
  async (t) => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const seen = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const some = drawSome(seed, items, 3);
      t.same(drawSome(seed, items, 3), some);
      t.equal(some.length, 3);
      t.same(
        some,
        items.filter((x) => some.includes(x)),
        'in their own order',
      );
      some.forEach((x) => seen.add(x));
    }
    t.equal(seen.size, items.length, 'every item drawn over seeds');
  },
);
