import t from 'tap';
import {
  concurrencyOf,
  countBy,
  idealMs,
  lagsOf,
  lastResultByNode,
  maxPerSecond,
  mean,
  slotCycleMs,
  storedPerStep,
  taskSizes,
  waveSpreads,
} from '../../../../bench/pipeline/figures.js';

t.test('concurrency: peak, time-weighted mean and per-step means', async (t) => {
  const c = concurrencyOf(
    [
      { start: 0, end: 1000 },
      { start: 500, end: 1500 },
      { start: 1500, end: 2000 },
    ],
    0,
    2000,
  );
  t.equal(c.requests, 3);
  t.equal(c.peak, 2, 'two overlap between 500 and 1000');
  t.equal(c.mean, 2500 / 2000, 'busy time over the window');
  t.same(c.perStep, [1.5, 1]);
  t.same(c.durations, [500, 1000, 1000], 'ascending');
  t.equal(c.firstStart, 0);
  t.equal(c.lastEnd, 2000);
});

t.test('concurrency: a request ending as another starts does not overlap it', async (t) => {
  const c = concurrencyOf(
    [
      { start: 0, end: 100 },
      { start: 100, end: 200 },
    ],
    0,
    200,
  );
  t.equal(c.peak, 1);
});

t.test(
  'concurrency: a request still running ends at the window end, and is clipped to it',
  async (t) => {
    const c = concurrencyOf([{ start: -500, end: 250 }, { start: 100 }], 0, 500, 250);
    t.same(c.durations, [400, 750]);
    t.equal(c.lastEnd, 500);
    t.same(c.perStep, [1 + 150 / 250, 1]);
    t.equal(c.mean, (250 + 400) / 500);
  },
);

t.test(
  'wave spreads: p5 to p95 of each wave of starts, for waves 1-3, the middle and the last',
  async (t) => {
    // 10 waves of 20 starts; wave k's starts are k*1000 + 0..19*k ms apart.
    const starts: number[] = [];
    for (let k = 0; k < 10; k++) for (let i = 0; i < 20; i++) starts.push(k * 1000 + i * (k + 1));
    const spreads = waveSpreads(starts.reverse(), 20);
    t.same(
      spreads.map((w) => w.wave),
      [1, 2, 3, 6, 10],
    );
    // Nearest rank: p5 of 20 is the 1st, p95 the 19th.
    t.same(
      spreads.map((w) => w.ms),
      [18, 36, 54, 108, 180],
    );
  },
);

t.test('wave spreads: no full wave, nothing shown; one wave, shown once', async (t) => {
  t.same(waveSpreads([1, 2, 3], 4), []);
  t.same(waveSpreads([0, 10, 20, 30], 4), [{ wave: 1, ms: 30 }]);
});

t.test(
  'lags: result after its last platform request, task final after its last result',
  async (t) => {
    const lags = lagsOf(
      [
        { prompt: 'a', end: 100 },
        { prompt: 'a', end: 300 },
        { prompt: 'b', end: 200 },
      ],
      [
        { taskId: 't1', prompt: 'a', time: 350, node: 'n1' },
        { taskId: 't1', prompt: 'b', time: 260, node: 'n2' },
        { taskId: 't2', prompt: 'c', time: 0, node: 'n1' },
      ],
      [
        { id: 't1', completedAt: 400 },
        { id: 't3', completedAt: 500 },
      ],
    );
    t.same(lags.settle, [50, 60], 'from the later of a retried prompt’s two requests');
    t.same(lags.finish, [0, 50], 'a task without results counts 0');
    t.equal(lags.lastRecorded, 350);
  },
);

t.test('last result per node', async (t) => {
  const last = lastResultByNode([
    { taskId: 't', prompt: 'a', time: 5, node: 'n1' },
    { taskId: 't', prompt: 'b', time: 9, node: 'n2' },
    { taskId: 't', prompt: 'c', time: 7, node: 'n1' },
  ]);
  t.same(
    [...last],
    [
      ['n1', 7],
      ['n2', 9],
    ],
  );
});

t.test('sizes, ideal time, slot cycle, mean', async (t) => {
  t.same(taskSizes(120, 50), [50, 50, 20]);
  t.same(taskSizes(50, 50), [50]);
  t.same(taskSizes(0, 50), []);
  t.equal(idealMs(2000, 1000, 100), 20_000);
  t.equal(slotCycleMs(21_000, 100, 2000), 1050);
  t.equal(mean([1, 2, 6]), 3);
  t.equal(mean([]), 0);
});

t.test('sub tasks stored per ramp-up step, capped at the total', async (t) => {
  t.same(storedPerStep([1100, 1200, 1600, 1700], 1000, 3, 250, 50, 180), [100, 100, 180]);
});

t.test('the largest sample per second; unsampled seconds are undefined', async (t) => {
  t.same(
    maxPerSecond(
      [
        { t: 1000, n: 3 },
        { t: 1500, n: 7 },
        { t: 3200, n: NaN },
      ],
      1000,
    ),
    [7, undefined, 0],
  );
});

t.test('counts by value', async (t) => {
  t.same(countBy(['completed', 'failed', 'completed']), { completed: 2, failed: 1 });
});
