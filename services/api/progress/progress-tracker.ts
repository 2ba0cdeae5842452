/**
 * What one events stream tells its client, worked out from successive status
 * views of the task: a snapshot first, then one `subtask` event per sub task
 * whose status moved since the last view, then `done` once the task is final.
 * Views, not events, are the source: a change that several broadcasts
 * announce, or none (a mended counter), is reported once, in the order the
 * views show it. Pure: the hub reads the views and writes the frames.
 */
import {
  FINAL_TASK_STATUSES,
  type SubTaskStatus,
  type TaskStatus,
} from '../../shared/contracts/status.js';

/** `data` of `GET /task/status/{taskId}` (services/tasks/views.ts taskStatusView). */
export interface StatusView {
  taskId: string;
  status: TaskStatus;
  message: string;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  createdAt: number | string;
  completedAt: number | string | null;
  subTaskList: {
    subTaskId: string;
    prompt: string;
    platform: string;
    channel: string | null;
    mode: string;
    status: SubTaskStatus;
  }[];
}

export interface SubTaskChange {
  taskId: string;
  subTaskId: string;
  platform: string;
  channel: string | null;
  mode: string;
  status: SubTaskStatus;
  taskStatus: TaskStatus;
  totalItems: number;
  completedItems: number;
  failedItems: number;
}

export interface TaskDone {
  taskId: string;
  status: TaskStatus;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  completedAt: number | string | null;
}

export type ProgressEvent =
  | { event: 'snapshot'; data: StatusView }
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
  snapshot(view: StatusView): ProgressEvent[] {
    for (const s of view.subTaskList) this.seen.set(s.subTaskId, s.status);
    return [{ event: 'snapshot', data: view }, ...this.doneIfFinal(view)];
  }

  /** What changed since the previous view, in sub task order. */
  next(view: StatusView): ProgressEvent[] {
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

  private doneIfFinal(view: StatusView): ProgressEvent[] {
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
