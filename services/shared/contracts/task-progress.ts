/**
 * A task's progress as the API shows it: the `data` of
 * `GET /task/status/{taskId}` (services/tasks/views.ts builds it) and the
 * payloads of its events stream (services/api/progress/). The dashboard and
 * the CLI read the same shapes.
 */
import type { SubTaskStatus, TaskStatus } from './status.js';

export interface SubTaskSummary {
  subTaskId: string;
  prompt: string;
  platform: string;
  /** null: stored before channels were recorded. */
  channel: string | null;
  mode: string;
  status: SubTaskStatus;
}

/** `data` of the status route, and of the events stream's `snapshot`. */
export interface TaskStatusView {
  taskId: string;
  /** The submission's name; null: none. */
  name: string | null;
  status: TaskStatus;
  message: string;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  createdAt: number;
  completedAt: number | null;
  subTaskList: SubTaskSummary[];
}

/** `data` of the events stream's `subtask` event: one sub task moved. */
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

/** `data` of the events stream's `done` event: the task is final. */
export interface TaskDone {
  taskId: string;
  status: TaskStatus;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  completedAt: number | null;
}
