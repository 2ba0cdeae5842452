import t from 'tap';
import { applyDone, applySubTask } from '../../../services/shared/task-progress.js';
import { gridOf } from '../../../web/src/progress.js';
import type { SubTaskSummary, TaskStatusView } from '../../../web/src/types.js';

const sub = (
  id: string,
  prompt: string,
  platform: string,
  channel: SubTaskSummary['channel'],
): SubTaskSummary => ({
  subTaskId: id,
  prompt,
  platform,
  channel,
  mode: 'search',
  status: 'pending',
});
const list: SubTaskSummary[] = [
  sub('1', 'p1', 'sandbox', 'api'),
  sub('2', 'p1', 'sandbox', 'web'),
  sub('3', 'p2', 'sandbox', 'api'),
  sub('4', 'p2', 'sandbox', 'web'),
];
const view: TaskStatusView = {
  taskId: 't',
  name: null,
  status: 'pending',
  message: '0/4 completed, 0 failed',
  totalItems: 4,
  completedItems: 0,
  failedItems: 0,
  createdAt: 1,
  completedAt: null,
  subTaskList: list,
};

t.test('a subtask event changes its sub task and the counters, nothing else', async (t) => {
  const next = applySubTask(view, {
    taskId: 't',
    subTaskId: '2',
    platform: 'sandbox',
    channel: 'web',
    mode: 'search',
    status: 'completed',
    taskStatus: 'processing',
    totalItems: 4,
    completedItems: 1,
    failedItems: 0,
  });
  t.same(
    next.subTaskList.map((s) => s.status),
    ['pending', 'completed', 'pending', 'pending'],
  );
  t.match(next, { status: 'processing', completedItems: 1 });
  t.equal(view.subTaskList[1]!.status, 'pending', 'the previous view is left as it was');
  const done = applyDone(next, {
    taskId: 't',
    status: 'partial_completed',
    totalItems: 4,
    completedItems: 3,
    failedItems: 1,
    completedAt: 42,
  });
  t.match(done, {
    status: 'partial_completed',
    completedItems: 3,
    failedItems: 1,
    completedAt: 42,
  });
});

t.test('the grid: prompts as rows, (platform, channel, mode) as columns, in order', async (t) => {
  const grid = gridOf(list);
  t.same(grid.prompts, ['p1', 'p2']);
  t.same(
    grid.columns.map((c) => c.key),
    ['sandbox|api|search', 'sandbox|web|search'],
  );
  t.equal(grid.cell('p2', 'sandbox|web|search')?.subTaskId, '4');
  t.equal(grid.cell('p3', 'sandbox|web|search'), undefined);
  t.same(gridOf([sub('9', 'p', 'kimi', null)]).columns[0]!.key, 'kimi||search');
});
