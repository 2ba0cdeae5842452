/**
 * What one events stream tells its client, worked out from successive status
 * views of the task: a snapshot first, then one `subtask` event per sub task
 * whose status moved since the last view, then `done` once the task is final.
 * Views, not events, are the source: a change that several broadcasts
 * announce, or none (a mended counter), is reported once, in the order the
 * views show it. Pure: the hub reads the views and writes the frames.
 */
import { FINAL_TASK_STATUSES, type SubTaskStatus } from '../../shared/contracts/status.js';
import type {
  SubTaskChange,
  TaskDone,
  TaskStatusView,
} from '../../shared/contracts/task-progress.js';

export type ProgressEvent =
  | { event: 'snapshot'; data: TaskStatusView }
  | { event: 'subtask'; data: SubTaskChange }
  | { event: 'done'; data: TaskDone };

export class ProgressTracker {
  private readonly seen = new Map<string, SubTaskStatus>();
  private finished = false;

  /** True once `done` was produced: the stream ends. */
  get ended(): boolean {
    return this.finished;
  }

  /** The first message of a stream (also after a reconnect): the whole view. */
  snapshot(view: TaskStatusView): ProgressEvent[] {
    for (const s of view.subTaskList) this.seen.set(s.subTaskId, s.status);
    return [{ event: 'snapshot', data: view }, ...this.doneIfFinal(view)];
  }

  /** What changed since the previous view, in sub task order. */
  next(view: TaskStatusView): ProgressEvent[] {
    if (this.finished) return [];
    const changes: ProgressEvent[] = [];
    for (const s of view.subTaskList) {
      if (this.seen.get(s.subTaskId) === s.status) continue;
      this.seen.set(s.subTaskId, s.status);
      changes.push({
        event: 'subtask',
        data: {
          taskId: view.taskId,
          subTaskId: s.subTaskId,
          platform: s.platform,
          channel: s.channel,
          mode: s.mode,
          status: s.status,
          taskStatus: view.status,
          totalItems: view.totalItems,
          completedItems: view.completedItems,
          failedItems: view.failedItems,
        },
      });
    }
    return [...changes, ...this.doneIfFinal(view)];
  }

  private doneIfFinal(view: TaskStatusView): ProgressEvent[] {
    if (!FINAL_TASK_STATUSES.includes(view.status)) return [];
    this.finished = true;
    return [
      {
        event: 'done',
        data: {
          taskId: view.taskId,
          status: view.status,
          totalItems: view.totalItems,
          completedItems: view.completedItems,
          failedItems: view.failedItems,
          completedAt: view.completedAt,
        },
      },
    ];
  }
}
