/**
 * A task's progress as its events stream tells it (pure): the snapshot sets
 * the whole view, each `subtask` event moves one sub task and the counters,
 * `done` ends it (services/shared/task-progress.ts, as the dashboard applies
 * them). A resumed stream starts with a fresh snapshot, which replaces all.
 */
import type { SseEvent } from '../../crawler/platforms/common/sse.js';
import type {
  SubTaskChange,
  SubTaskSummary,
  TaskDone,
  TaskStatusView,
} from '../../services/shared/contracts/task-progress.js';
import type { TaskStatus } from '../../services/shared/contracts/status.js';
import { applyDone, applySubTask } from '../../services/shared/task-progress.js';

export class TaskProgress {
  /** The task as the stream told it so far; null before its snapshot. */
  view: TaskStatusView | null = null;
  done = false;

  constructor(readonly taskId: string) {}

  get status(): TaskStatus {
    return this.view?.status ?? 'pending';
  }

  get total(): number {
    return this.view?.totalItems ?? 0;
  }

  get completed(): number {
    return this.view?.completedItems ?? 0;
  }

  get failed(): number {
    return this.view?.failedItems ?? 0;
  }

  /** Sub tasks final, counted or not: the bar's position. */
  get settled(): number {
    return this.completed + this.failed;
  }

  get subTasks(): readonly SubTaskSummary[] {
    return this.view?.subTaskList ?? [];
  }

  /**
   * Applies one event; true when it changed what the progress shows. The
   * stream always starts with its snapshot: before it, nothing applies.
   */
  apply(event: SseEvent): boolean {
    if (event.event === 'snapshot') {
      this.view = JSON.parse(event.data) as TaskStatusView;
      return true;
    }
    if (!this.view) return false;
    if (event.event === 'subtask') {
      this.view = applySubTask(this.view, JSON.parse(event.data) as SubTaskChange);
      return true;
    }
    if (event.event === 'done') {
      this.view = applyDone(this.view, JSON.parse(event.data) as TaskDone);
      this.done = true;
      return true;
    }
    return false;
  }
}

/** The plain progress line (stderr not a terminal): `3/6 sub tasks: 2 completed, 1 failed (processing)`. */
export function progressLine(p: TaskProgress): string {
  return `${p.settled}/${p.total} sub tasks: ${p.completed} completed, ${p.failed} failed (${p.status})`;
}
