import t from 'tap';
import {
  platformStatusCounts,
  promptPlatformMatrix,
  summaryText,
} from '../../../bin/cli/summary.js';
import type { SubTaskSummary } from '../../../services/shared/contracts/http.js';

const s = (
  prompt: string,
  platform: string,
  channel: SubTaskSummary['channel'],
  status: SubTaskSummary['status'],
): SubTaskSummary => ({
  subTaskId: `${prompt}-${platform}-${channel}`,
  prompt,
  platform,
  channel,
  mode: 'standard',
  status,
});
const SUBS = [
  s('one', 'kimi', 'api', 'completed'),
  s('one', 'doubao', 'web', 'failed'),
  s('one', 'doubao', 'api', 'completed'),
  s('two', 'kimi', 'api', 'timeout'),
  s('two', 'doubao', 'web', 'completed'),
  s('two', 'doubao', 'api', 'pending'),
];

t.test('counts per platform and status: statuses present, in a fixed order', async (t) => {
  t.same(platformStatusCounts(SUBS), {
    head: ['platform', 'completed', 'failed', 'timeout', 'pending', 'total'],
    rows: [
      ['kimi (api)', '1', '0', '1', '0', '2'],
      ['doubao (web)', '1', '1', '0', '0', '2'],
      ['doubao (api)', '1', '0', '0', '1', '2'],
    ],
  });
});

t.test('each prompt per platform; a missing pair shows -', async (t) => {
  t.same(promptPlatformMatrix([...SUBS, s('three', 'kimi', null, 'error')], 4), {
    head: ['prompt', 'kimi (api)', 'doubao (web)', 'doubao (api)', 'kimi'],
    rows: [
      ['one', 'completed', 'failed', 'completed', '-'],
      ['two', 'timeout', 'completed', 'pending', '-'],
      ['thr…', '-', '-', '-', 'error'],
    ],
  });
});

t.test('the summary: headline, then both tables, plain text', async (t) => {
  const text = summaryText({
    taskId: 'T',
    status: 'processing',
    totalItems: 6,
    completedItems: 3,
    failedItems: 2,
    subTaskList: SUBS,
  });
  t.equal(text.split('\n')[0], 'task T: processing (3 completed, 2 failed, 6 sub tasks)');
  t.match(text, '│ kimi (api)   │ 1         │ 0      │ 1       │ 0       │ 2     │');
  t.match(text, '│ two    │ timeout    │ completed    │ pending      │');
  t.notMatch(text, /\u001b\[/, 'no colours');
});
