/**
 * A task's progress as its events stream tells it (pure): the snapshot sets
 * every sub task, each `subtask` event moves one and the counters, `done`
 * ends it. A resumed stream starts with a fresh snapshot, which replaces all.
 */
import type { SseEvent } from '../../crawler/platforms/common/sse.js';
import type {
  SubTaskChange,
  SubTaskSummary,
  TaskDone,
  TaskStatusView,
} from '../../services/shared/contracts/task-progress.js';

type Counters = Pick<TaskDone, 'totalItems' | 'completedItems' | 'failedItems'>;

export class TaskProgress {
  status = 'pending';
  total = 0;
  completed = 0;
  failed = 0;
  done = false;
  readonly subTasks = new Map<string, SubTaskSummary>();

  constructor(readonly taskId: string) {}

  /** Sub tasks final, counted or not: the bar's position. */
  get settled(): number {
    return this.completed + this.failed;
  }

  /** Applies one event; true when it changed what the progress shows. */
  apply(event: SseEvent): boolean {
    if (event.event === 'snapshot') {
      const view = JSON.parse(event.data) as TaskStatusView;
      this.subTasks.clear();
      for (const s of view.subTaskList) this.subTasks.set(s.subTaskId, { ...s });
      this.count(view, view.status);
      return true;
    }
    if (event.event === 'subtask') {
      const change = JSON.parse(event.data) as SubTaskChange;
      const line = this.subTasks.get(change.subTaskId);
      if (line) line.status = change.status;
      this.count(change, change.taskStatus);
      return true;
    }
    if (event.event === 'done') {
      const done = JSON.parse(event.data) as TaskDone;
      this.count(done, done.status);
      this.done = true;
      return true;
    }
    return false;
  }

  private count(c: Counters, status: string | undefined): void {
    if (status) this.status = status;
    this.total = c.totalItems;
    this.completed = c.completedItems;
    this.failed = c.failedItems;
  }
}

/** The plain progress line (stderr not a terminal): `3/6 sub tasks: 2 completed, 1 failed (processing)`. */
export function progressLine(p: TaskProgress): string {
  return `${p.settled}/${p.total} sub tasks: ${p.completed} completed, ${p.failed} failed (${p.status})`;
}
