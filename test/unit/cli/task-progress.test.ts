import t from 'tap';
import { parseSse } from '../../../crawler/platforms/common/sse.js';
import { progressLine, TaskProgress } from '../../../bin/cli/task-progress.js';

const sub = (id: string, prompt: string, status: string) => ({
  subTaskId: id,
  prompt,
  platform: 'sandbox',
  channel: 'api',
  mode: 'standard',
  status,
});
const frame = (id: number, event: string, data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const counters = (completedItems: number, failedItems: number) => ({
  totalItems: 2,
  completedItems,
  failedItems,
});

const STREAM = [
  frame(1, 'snapshot', {
    taskId: 'T',
    status: 'pending',
    message: '0/2',
    ...counters(0, 0),
    createdAt: 1,
    completedAt: null,
    subTaskList: [sub('a', 'one', 'pending'), sub('b', 'two', 'pending')],
  }),
  ': ping\n\n',
  frame(2, 'subtask', {
    subTaskId: 'a',
    status: 'completed',
    taskStatus: 'processing',
    ...counters(1, 0),
  }),
  frame(3, 'subtask', {
    subTaskId: 'b',
    status: 'error',
    taskStatus: 'processing',
    ...counters(1, 1),
  }),
  frame(4, 'done', { taskId: 'T', status: 'partial_completed', ...counters(1, 1), completedAt: 9 }),
];

t.test('snapshot, changes and done, as the stream tells them', async (t) => {
  const p = new TaskProgress('T');
  const lines: string[] = [];
  for (const e of parseSse(STREAM)) if (p.apply(e)) lines.push(progressLine(p));
  t.same(lines, [
    '0/2 sub tasks: 0 completed, 0 failed (pending)',
    '1/2 sub tasks: 1 completed, 0 failed (processing)',
    '2/2 sub tasks: 1 completed, 1 failed (processing)',
    '2/2 sub tasks: 1 completed, 1 failed (partial_completed)',
  ]);
  t.ok(p.done);
  t.same(
    [...p.subTasks.values()].map((s) => s.status),
    ['completed', 'error'],
  );
});

t.test('a resumed stream starts over from its snapshot', async (t) => {
  const p = new TaskProgress('T');
  for (const e of parseSse(STREAM.slice(0, 3))) p.apply(e);
  const resumed = parseSse([
    frame(5, 'snapshot', {
      taskId: 'T',
      status: 'processing',
      message: '',
      ...counters(2, 0),
      createdAt: 1,
      completedAt: null,
      subTaskList: [sub('a', 'one', 'completed'), sub('b', 'two', 'completed')],
    }),
  ]);
  for (const e of resumed) p.apply(e);
  t.equal(p.settled, 2);
  t.notOk(p.done);
  t.same(
    [...p.subTasks.values()].map((s) => s.status),
    ['completed', 'completed'],
  );
  t.notOk(p.apply({ event: 'message', data: '{}' }), 'other events change nothing');
});
