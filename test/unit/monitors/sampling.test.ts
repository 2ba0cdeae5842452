import t from 'tap';
import {
  ceiling,
  firstRound,
  samplingOutcome,
  wantsMore,
} from '../../../services/monitors/figures/sampling.js';

const adaptive = { min: 5, max: 12, targetWidth: 0.5 };

t.test('a fixed count never asks more', async (t) => {
  t.equal(firstRound(3), 3);
  t.equal(ceiling(3), 3);
  t.notOk(wantsMore(3, { answered: 3, mentioned: 1 }, 3));
  t.strictSame(samplingOutcome(3, { answered: 3, mentioned: 3 }, 3).saved, 0);
});

t.test('an adaptive cell: min first, then only while too wide, up to max', async (t) => {
  t.equal(firstRound(adaptive), 5);
  t.equal(ceiling(adaptive), 12);
  t.ok(wantsMore(adaptive, { answered: 3, mentioned: 3 }, 3), 'below min');
  // A unanimous cell at 5: width 3.84/8.84 = 0.43 < 0.5.
  t.notOk(wantsMore(adaptive, { answered: 5, mentioned: 5 }, 5), 'a stable cell stops at min');
  t.notOk(wantsMore(adaptive, { answered: 5, mentioned: 0 }, 5), 'unanimous the other way too');
  // Split answers at 5: width about 0.67.
  t.ok(wantsMore(adaptive, { answered: 5, mentioned: 2 }, 5), 'a varying cell goes on');
  t.ok(wantsMore(adaptive, { answered: 11, mentioned: 5 }, 11), 'still about 0.5 wide at 11');
  t.notOk(wantsMore(adaptive, { answered: 12, mentioned: 6 }, 12), 'max ends it');
  t.ok(wantsMore(adaptive, { answered: 3, mentioned: 3 }, 5), 'failed samples leave the rate wide');
  const outcome = samplingOutcome(adaptive, { answered: 5, mentioned: 5 }, 5);
  t.equal(outcome.taken, 5);
  t.equal(outcome.saved, 7, 'calls saved against a fixed max');
  t.ok(Math.abs(outcome.width - 0.4345) < 1e-3);
});
