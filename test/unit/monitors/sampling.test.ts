import t from 'tap';
import {
  ceiling,
  firstRound,
  moreSamples,
  projectedWidth,
  targetWidthOf,
} from '../../../services/monitors/figures/sampling.js';
import { width, wilson } from '../../../services/monitors/figures/wilson.js';

const adaptive = { min: 5, max: 12, targetWidth: 0.5 };

t.test('a fixed count never asks more', async (t) => {
  t.equal(firstRound(3), 3);
  t.equal(ceiling(3), 3);
  t.equal(targetWidthOf(3), null);
  t.equal(moreSamples(3, { answered: 3, mentioned: 1 }, 3), 0);
});

t.test('the projected width is the Wilson width at whole counts', async (t) => {
  for (const [m, n] of [
    [0, 5],
    [5, 5],
    [2, 5],
    [6, 12],
    [7, 20],
  ] as const) {
    t.ok(Math.abs(projectedWidth(m / n, n) - width(wilson(m, n))) < 1e-12, `${m}/${n}`);
  }
});

t.test('an adaptive cell: min first, then only while too wide, up to max', async (t) => {
  t.equal(firstRound(adaptive), 5);
  t.equal(ceiling(adaptive), 12);
  t.equal(targetWidthOf(adaptive), 0.5);
  t.equal(moreSamples(adaptive, { answered: 3, mentioned: 3 }, 3), 2, 'below min: up to min');
  // A unanimous cell at 5: width 3.84/8.84 = 0.43 < 0.5.
  t.equal(moreSamples(adaptive, { answered: 5, mentioned: 5 }, 5), 0, 'a stable cell stops');
  t.equal(moreSamples(adaptive, { answered: 5, mentioned: 0 }, 5), 0, 'unanimous the other way');
  // Split answers at 5 (width about 0.67): at 2/5 the target needs about 13 answers; max caps at 12.
  t.equal(moreSamples(adaptive, { answered: 5, mentioned: 2 }, 5), 7, 'a varying cell: to max');
  t.equal(moreSamples(adaptive, { answered: 11, mentioned: 5 }, 11), 1, 'still wide at 11');
  t.equal(moreSamples(adaptive, { answered: 12, mentioned: 6 }, 12), 0, 'max ends it');
  t.equal(moreSamples(adaptive, { answered: 0, mentioned: 0 }, 5), 0, 'no answer at all: no more');
  t.ok(moreSamples(adaptive, { answered: 3, mentioned: 3 }, 5) > 0, 'failures leave it wide');
});

t.test('a round asks what the rate so far projects, at least one', async (t) => {
  const wide = { min: 3, max: 20, targetWidth: 0.4 };
  // Unanimous at 3: the width falls under 0.4 at 6 answers (3.84/9.84 = 0.39).
  t.equal(moreSamples(wide, { answered: 3, mentioned: 3 }, 3), 3);
  t.ok(width(wilson(6, 6)) <= 0.4 && width(wilson(5, 5)) > 0.4);
  // Just over the target, projected under it right away: one more.
  const near = { min: 3, max: 20, targetWidth: width(wilson(8, 9)) - 1e-9 };
  t.equal(moreSamples(near, { answered: 9, mentioned: 8 }, 9), 1);
});
