import t from 'tap';
import { formatFileTimes, slowestFiles } from '../../../infra/test-times.js';

t.test('ranks test files by their whole process time, slowest first', async (t) => {
  const ranked = slowestFiles(
    [
      { externalID: 'test/a.test.ts', runtime: 1_200 },
      { runtime: 90_000 }, // a node a test started: not a test file
      { externalID: 'test/b.test.ts', runtime: 61_040 },
      { externalID: 'test/c.test.ts' }, // ended before its time was written
      { externalID: 'test/d.test.ts', runtime: 3_000 },
    ],
    2,
  );
  t.same(ranked, [
    { file: 'test/b.test.ts', seconds: 61.04 },
    { file: 'test/d.test.ts', seconds: 3 },
  ]);
  t.equal(
    formatFileTimes(ranked),
    '   61.0 s  test/b.test.ts\n    3.0 s  test/d.test.ts',
    'seconds right-aligned before the file',
  );
});
