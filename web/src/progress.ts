/**
 * The task events stream applied to the status view, pure: `snapshot` is the
 * whole state (the status route's data), `subtask` one sub task's new status
 * with the task's counters, `done` the final counters.
 */
import type { TaskDone, SubTaskChange, SubTaskSummary, TaskStatusView } from './types.js';

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

export interface Grid {
  prompts: string[];
  /** One column per (platform, channel, mode), in the order the sub tasks name them. */
  columns: { key: string; platform: string; channel: string | null; mode: string }[];
  cell(prompt: string, column: string): SubTaskSummary | undefined;
}

export const columnKey = (s: Pick<SubTaskSummary, 'platform' | 'channel' | 'mode'>) =>
  `${s.platform}|${s.channel ?? ''}|${s.mode}`;

export function gridOf(list: SubTaskSummary[]): Grid {
  const prompts: string[] = [];
  const columns: Grid['columns'] = [];
  const cells = new Map<string, SubTaskSummary>();
  for (const s of list) {
    if (!prompts.includes(s.prompt)) prompts.push(s.prompt);
    const key = columnKey(s);
    if (!columns.some((c) => c.key === key)) {
      columns.push({ key, platform: s.platform, channel: s.channel, mode: s.mode });
    }
    cells.set(`${s.prompt}\n${key}`, s);
  }
  return { prompts, columns, cell: (prompt, column) => cells.get(`${prompt}\n${column}`) };
}
