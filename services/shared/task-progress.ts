/**
 * A task's events stream applied to its status view (pure): `snapshot` is the
 * whole view (the status route's data), `subtask` one sub task's new status
 * with the task's counters, `done` the final counters. The dashboard and the
 * CLI follow a task this way.
 */
import type { SubTaskChange, TaskDone, TaskStatusView } from './contracts/task-progress.js';

export function applySubTask(view: TaskStatusView, e: SubTaskChange): TaskStatusView {
  return {
    ...view,
    status: e.taskStatus,
    totalItems: e.totalItems,
    completedItems: e.completedItems,
    failedItems: e.failedItems,
    subTaskList: view.subTaskList.map((s) =>
      s.subTaskId === e.subTaskId ? { ...s, status: e.status } : s,
    ),
  };
}

export function applyDone(view: TaskStatusView, e: TaskDone): TaskStatusView {
  return {
    ...view,
    status: e.status,
    totalItems: e.totalItems,
    completedItems: e.completedItems,
    failedItems: e.failedItems,
    completedAt: e.completedAt,
  };
}
