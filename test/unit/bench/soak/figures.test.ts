import t from 'tap';
import { doubles, slopePerHour, span, warmupMs } from '../../../../bench/soak/figures.js';

const H = 3_600_000;

t.test('the least-squares slope is per hour', async (t) => {
  const line = [0, 1, 2, 3].map((i) => ({ at: 1e12 + (i * H) / 4, value: 100 + 5 * i }));
  t.equal(Math.round(slopePerHour(line) * 1e9) / 1e9, 20, '5 MB per quarter hour');
  const noisy = [
    { at: 0, value: 100 },
    { at: H / 2, value: 130 },
    { at: H, value: 100 },
  ];
  t.equal(slopePerHour(noisy), 0, 'a spike in the middle is no trend');
  t.ok(Number.isNaN(slopePerHour([{ at: 0, value: 1 }])), 'one point has no slope');
  t.ok(
    Number.isNaN(
      slopePerHour([
        { at: 5, value: 1 },
        { at: 5, value: 2 },
      ]),
    ),
    'nor one moment',
  );
});

t.test('span and warm-up', async (t) => {
  t.same(
    span([
      { at: 0, value: 3 },
      { at: 1, value: 9 },
      { at: 2, value: 4 },
    ]),
    {
      first: 3,
      last: 4,
      max: 9,
    },
  );
  t.equal(warmupMs(60 * 60_000), 5 * 60_000, 'five minutes of an hour');
  t.equal(warmupMs(30_000), 6_000, 'a fifth of a tiny run');
});

t.test(
  'doubles: a kill or a counted re-lease explains a second answer, nothing else does',
  async (t) => {
    const kill = 10_000;
    const d = doubles(
      [
        { key: 'once', answeredAt: [1], requests: 1, attempts: 1 },
        { key: 'retried', answeredAt: [1], requests: 2, attempts: 2 },
        { key: 'killed', answeredAt: [9_000, 20_000], requests: 2, attempts: 2 },
        { key: 'slow', answeredAt: [1_000, 60_000], requests: 2, attempts: 2 },
        { key: 'uncounted', answeredAt: [9_500, 20_000], requests: 2, attempts: 1 },
        { key: 'asked-unseen', answeredAt: [5], requests: 1, attempts: 0 },
      ],
      [kill],
      5_000,
    );
    t.same(d, { twice: 2, byKill: 1, reLeased: 1, unexplained: ['uncounted', 'asked-unseen'] });
  },
);
