/** The task list as a table (pure). */
import type { ListData } from '../../services/shared/contracts/http.js';
import { platformLabel } from './summary.js';
import { clip, renderTable } from './table.js';

export function listText(list: ListData): string {
  const pages = Math.max(1, Math.ceil(list.total / list.size));
  const rows = list.tasks.map((t) => [
    t.taskId,
    clip(t.name ?? '', 30),
    t.status,
    `${t.completedItems}/${t.failedItems}/${t.totalItems}`,
    t.platforms.map((p) => `${platformLabel(p)} ${p.mode}`).join(', '),
    `${t.prompts.length}: ${clip(t.prompts[0], 30)}`,
    new Date(t.createdAt).toISOString(),
  ]);
  return [
    renderTable(
      ['taskId', 'name', 'status', 'done/failed/total', 'platforms', 'prompts', 'created'],
      rows,
    ),
    `page ${list.page} of ${pages}, ${list.total} tasks`,
  ].join('\n');
}
