/** The prompt × platform grid of a task's sub tasks, pure. */
import type { SubTaskSummary } from './types.js';

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
