/**
 * The summary `submit --wait` and `status` print (pure): sub tasks per
 * platform and status, and each prompt's status per platform.
 */
import type { StatusData, SubTaskSummary } from '../../services/shared/contracts/http.js';
import { clip, renderTable } from './table.js';

const STATUS_ORDER = ['completed', 'failed', 'timeout', 'error', 'processing', 'pending'];

/** `doubao (web)`: a task may hold one platform on both channels. */
export function platformLabel(s: { platform: string; channel: string | null }): string {
  return s.channel ? `${s.platform} (${s.channel})` : s.platform;
}

export interface Grid {
  head: string[];
  rows: string[][];
}

/** Rows: platforms in sub task order; columns: the statuses present, then the total. */
export function platformStatusCounts(subTasks: readonly SubTaskSummary[]): Grid {
  // Text, not the known statuses: a newer server may send one this client does not know.
  const present = new Set<string>(subTasks.map((s) => s.status));
  const statuses = [
    ...STATUS_ORDER.filter((s) => present.has(s)),
    ...[...present].filter((s) => !STATUS_ORDER.includes(s)).sort(),
  ];
  const counts = new Map<string, Map<string, number>>();
  for (const s of subTasks) {
    const row = counts.get(platformLabel(s)) ?? new Map<string, number>();
    row.set(s.status, (row.get(s.status) ?? 0) + 1);
    counts.set(platformLabel(s), row);
  }
  const rows = [...counts].map(([label, row]) => [
    label,
    ...statuses.map((s) => String(row.get(s) ?? 0)),
    String([...row.values()].reduce((a, b) => a + b, 0)),
  ]);
  return { head: ['platform', ...statuses, 'total'], rows };
}

/** Rows: prompts in order; columns: platforms; cells: the sub task's status. */
export function promptPlatformMatrix(subTasks: readonly SubTaskSummary[], promptWidth = 40): Grid {
  const platforms = [...new Set(subTasks.map(platformLabel))];
  const prompts = [...new Set(subTasks.map((s) => s.prompt))];
  const cell = new Map(subTasks.map((s) => [`${s.prompt}\u0000${platformLabel(s)}`, s]));
  const rows = prompts.map((prompt) => [
    clip(prompt, promptWidth),
    ...platforms.map((p) => {
      const s = cell.get(`${prompt}\u0000${p}`);
      return s ? s.status : '-';
    }),
  ]);
  return { head: ['prompt', ...platforms], rows };
}

export type TaskSummary = Pick<
  StatusData,
  'taskId' | 'status' | 'totalItems' | 'completedItems' | 'failedItems'
> & { subTaskList: readonly SubTaskSummary[] };

/** The headline, the platform × status counts and the prompt × platform statuses. */
export function summaryText(t: TaskSummary): string {
  const counts = platformStatusCounts(t.subTaskList);
  const matrix = promptPlatformMatrix(t.subTaskList);
  return [
    `task ${t.taskId}: ${t.status} (${t.completedItems} completed, ${t.failedItems} failed, ${t.totalItems} sub tasks)`,
    renderTable(counts.head, counts.rows),
    renderTable(matrix.head, matrix.rows),
  ].join('\n');
}
