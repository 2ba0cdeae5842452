import t from 'tap';
import { dist, fmtCounts, outcomeLine, s } from '../../../../bench/pipeline/format.js';
import type { PhaseResult } from '../../../../bench/pipeline/load.js';

t.test('seconds, distributions and counts', async (t) => {
  t.equal(s(20_604), '20.60 s');
  t.equal(dist([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 'p50 5 ms, p90 9 ms, max 10 ms');
  t.equal(dist([]), 'p50 NaN ms, p90 NaN ms, max NaN ms', 'no values say so');
  t.equal(fmtCounts({ completed: 38, failed: 2 }), 'completed 38, failed 2');
  t.equal(fmtCounts({}), 'none');
});

t.test('retries, with the errors when there are some', async (t) => {
  const phase = { retried: 0, errors: [] } as unknown as PhaseResult;
  t.equal(outcomeLine(phase), 'retried sub tasks 0');
  t.equal(
    outcomeLine({ ...phase, retried: 3, errors: ['timeout', 'HTTP 500'] }),
    'retried sub tasks 3; errors: timeout | HTTP 500',
  );
});
