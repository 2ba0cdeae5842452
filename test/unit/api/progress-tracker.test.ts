import t from 'tap';
import { ProgressTracker } from '../../../services/api/progress/progress-tracker.js';
import type { TaskStatusView } from '../../../services/shared/contracts/task-progress.js';

const view = (status: TaskStatusView['status'], subs: [string, string][]): TaskStatusView => ({
  taskId: 't1',
  name: null,
  status,
  message: '',
  totalItems: subs.length,
  completedItems: subs.filter(([, s]) => s === 'completed').length,
  failedItems: subs.filter(([, s]) => s === 'failed').length,
  createdAt: 1,
  completedAt: null,
  subTaskList: subs.map(([id, s]) => ({
    subTaskId: id,
    prompt: 'p',
    platform: 'sandbox',
    channel: 'api',
    mode: 'standard',
    status: s as TaskStatusView['subTaskList'][number]['status'],
  })),
});

t.test('only what moved is told, in sub task order, and done once', (t) => {
  const tracker = new ProgressTracker();
  const first = tracker.snapshot(
    view('pending', [
      ['a', 'pending'],
      ['b', 'pending'],
    ]),
  );
  t.same(
    first.map((e) => e.event),
    ['snapshot'],
  );
  t.same(
    tracker.next(
      view('pending', [
        ['a', 'pending'],
        ['b', 'pending'],
      ]),
    ),
    [],
    'no change',
  );
  const moved = tracker.next(
    view('processing', [
      ['a', 'processing'],
      ['b', 'processing'],
    ]),
  );
  t.same(
    moved.map((e) => [e.event, 'subTaskId' in e.data ? e.data.subTaskId : '']),
    [
      ['subtask', 'a'],
      ['subtask', 'b'],
    ],
  );
  const retried = tracker.next(
    view('processing', [
      ['a', 'pending'],
      ['b', 'completed'],
    ]),
  );
  t.match(retried, [
    { event: 'subtask', data: { subTaskId: 'a', status: 'pending', taskStatus: 'processing' } },
    { event: 'subtask', data: { subTaskId: 'b', status: 'completed', completedItems: 1 } },
  ]);
  const end = tracker.next(
    view('partial_completed', [
      ['a', 'failed'],
      ['b', 'completed'],
    ]),
  );
  t.same(
    end.map((e) => e.event),
    ['subtask', 'done'],
  );
  t.match(end[1]!.data, { status: 'partial_completed', completedItems: 1, failedItems: 1 });
  t.ok(tracker.ended);
  t.same(
    tracker.next(
      view('completed', [
        ['a', 'completed'],
        ['b', 'completed'],
      ]),
    ),
    [],
    'nothing after done',
  );
  t.end();
});

t.test('a snapshot of a final task is followed by done at once', (t) => {
  const tracker = new ProgressTracker();
  t.same(
    tracker.snapshot(view('completed', [['a', 'completed']])).map((e) => e.event),
    ['snapshot', 'done'],
  );
  t.end();
});
