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
  pairwiseDrifts,
  STREAM_LOSS,
} from '../../../replicas/common/drift-sample.js';
import type { CallFrom } from '../../../replicas/common/drift.js';

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
