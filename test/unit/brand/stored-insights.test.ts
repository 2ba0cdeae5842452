import t from 'tap';
import {
  STORED_INSIGHTS_VERSION,
  toStored,
  usableInsights,
  visibilityWith,
} from '../../../services/shared/brand/stored-insights.js';
import { visibilityOf } from '../../../services/shared/brand/visibility.js';
import { FINAL_TASK_STATUSES, type TaskStatus } from '../../../services/shared/contracts/status.js';
import { benchGroups, benchSubTasks } from '../../../bench/brand/fixture.js';

const groups = benchGroups().slice(0, 5);
const inputs = benchSubTasks(groups, 300);
const live = visibilityOf(groups, inputs);

t.test(
  'a final task read with the insights stored at its finish: the live sum, exactly',
  async (t) => {
    t.ok(live.discovered.length > 0 && live.opportunities.length > 0, 'the fixture has both');
    const stored = toStored(live);
    t.equal(stored.version, STORED_INSIGHTS_VERSION);
    // Through JSON, as the store gives them back.
    const read = visibilityWith(groups, inputs, JSON.parse(JSON.stringify(stored)));
    t.strictSame(read, live);
  },
);

t.test('stored insights are used only for a final task, of this version', async (t) => {
  const stored = toStored(live);
  for (const status of FINAL_TASK_STATUSES)
    t.equal(usableInsights({ status, insights: stored }), stored, `${status}: used`);
  for (const status of ['pending', 'processing'] as TaskStatus[])
    t.equal(usableInsights({ status, insights: stored }), null, `${status}: summed on read`);
  t.equal(usableInsights({ status: 'completed' }), null, 'finished before they were stored');
  t.equal(usableInsights({ status: 'completed', insights: null }), null, 'none stored');
  t.equal(
    usableInsights({ status: 'completed', insights: { ...stored, version: 0 } }),
    null,
    'another version: summed on read',
  );
  t.equal(
    usableInsights({
      status: 'completed',
      insights: { version: STORED_INSIGHTS_VERSION } as never,
    }),
    null,
    'not the stored shape: summed on read',
  );
});

t.test('without stored insights the read sums them, as before', async (t) => {
  t.strictSame(visibilityWith(groups, inputs, null), live);
});
