import t from 'tap';
import { gapPointText, gapText, pct, rateText } from '../../../services/shared/figure-text.js';

const NONE = { value: null, lower: null, upper: null, n: 0 };

t.test('a rate: in percent to one decimal, with its interval and n', async (t) => {
  t.equal(pct(0.6254), 62.5);
  t.equal(pct(null), null);
  t.equal(
    rateText({ value: 0.625, lower: 0.306, upper: 0.863, n: 8 }),
    '62.5% (30.6–86.3%, n = 8)',
  );
  t.equal(rateText(NONE), 'n = 0', 'no answer: only the n');
});

t.test('a gap: signed percentage points with its interval', async (t) => {
  t.equal(gapText({ value: 0.12, lower: -0.05, upper: 0.3 }), '+12 pp (−5 to +30)');
  t.equal(gapText({ value: 0, lower: -0.1, upper: 0.1 }), '0 pp (−10 to +10)');
  t.equal(gapText({ value: -0.5, lower: -0.8, upper: -0.1 }), '−50 pp (−80 to −10)');
  t.equal(gapText({ value: null, lower: null, upper: null }), '—');
});

t.test("a gap point: the gap, then the API's and the web's rate", async (t) => {
  t.equal(
    gapPointText({
      runId: '0b6f3f3e-8a55-4a8e-9a63-3c1f0d1f9e21',
      slot: 1,
      api: { value: 1, lower: 0.4385, upper: 1, n: 3 },
      web: { value: 0, lower: 0, upper: 0.5614, n: 3 },
      gap: { value: 1, lower: 0.2059, upper: 1 },
    }),
    '+100 pp (+20.6 to +100) · API 100% (43.9–100%, n = 3) · web 0% (0–56.1%, n = 3)',
  );
  t.equal(
    gapPointText({
      runId: '0b6f3f3e-8a55-4a8e-9a63-3c1f0d1f9e21',
      slot: 1,
      api: { value: 1, lower: 0.4385, upper: 1, n: 3 },
      web: NONE,
      gap: { value: null, lower: null, upper: null },
    }),
    '— · API 100% (43.9–100%, n = 3) · web n = 0',
    'the web answered nothing: no gap, its n',
  );
});
