/**
 * The full result (`GET /task/result/{taskId}`) as a table, JSON or CSV
 * (pure). The CSV has one RFC 4180 record per sub task, without the BOM the
 * export adds for spreadsheets: it is meant for pipes.
 */
import { csvLine, type Cell } from '../../services/api/export/csv.js';
import type { ResultData, SubTaskResult } from '../../services/shared/contracts/http.js';
import { platformLabel } from './summary.js';
import { renderFitted } from './table.js';

export const RESULT_FORMATS = ['table', 'json', 'csv'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

/** The fields of a sub task result that the formats show. */
export type ResultSubTask = Pick<
  SubTaskResult,
  | 'subTaskId'
  | 'prompt'
  | 'platform'
  | 'channel'
  | 'mode'
  | 'status'
  | 'time'
  | 'answerContent'
  | 'referenceList'
  | 'citationList'
  | 'errorMessage'
  | 'pageScreenshot'
  | 'proxyIp'
> &
  Partial<Pick<SubTaskResult, 'mentioned'>> & {
    mentions?: Pick<SubTaskResult['mentions'][number], 'keyword' | 'count' | 'position'>[];
  };

export type TaskResult = Pick<
  ResultData,
  'taskId' | 'status' | 'totalItems' | 'completedItems' | 'failedItems'
> & { subTaskList: ResultSubTask[] };

export const CSV_HEADER = [
  'subTaskId',
  'prompt',
  'platform',
  'channel',
  'mode',
  'status',
  'time',
  'answerContent',
  'references',
  'citations',
  'mentioned',
  'errorMessage',
  'pageScreenshot',
  'proxyIp',
];

/** The terminal width when stdout is not a terminal (a pipe, a file). */
export const DEFAULT_WIDTH = 100;

/** `width`: of the terminal, for the table (process.stdout.columns). */
export function formatResult(
  result: TaskResult,
  format: ResultFormat,
  width: number = DEFAULT_WIDTH,
): string {
  if (format === 'json') return JSON.stringify(result, null, 2);
  if (format === 'csv') return resultCsv(result);
  return resultTable(result, width);
}

export function resultCsv(result: TaskResult): string {
  const rows = result.subTaskList.map((s): Cell[] => [
    s.subTaskId,
    s.prompt,
    s.platform,
    s.channel,
    s.mode,
    s.status,
    s.time === null ? null : new Date(s.time).toISOString(),
    s.answerContent,
    s.referenceList.length,
    s.citationList.length,
    s.mentioned ?? null,
    s.errorMessage,
    s.pageScreenshot,
    s.proxyIp,
  ]);
  return [CSV_HEADER, ...rows].map(csvLine).join('');
}

const RESULT_HEAD = [
  'prompt',
  'platform',
  'mode',
  'status',
  'mentions (#pos)',
  'answer / error',
  'refs/cited',
];
/**
 * To fit the terminal, the prompt and the answer give way first (the answer
 * kept twice as wide), then the other columns, and the mentions (the figure
 * a brand team came for) last.
 */
const GIVE_WAY: Record<number, number>[] = [{ 0: 1, 5: 2 }, { 1: 1, 2: 1, 3: 1, 6: 1 }, { 4: 1 }];

/**
 * The groups the answer mentions with their position among all the brands
 * it recommends (`Acme #2, Globex #1`); `-` when it mentions none; empty
 * before an answer.
 */
export function mentionsCell(s: ResultSubTask): string {
  if (s.status !== 'completed' || !s.mentions) return '';
  const named = s.mentions.filter((m) => m.count > 0);
  if (!named.length) return '-';
  return named.map((m) => (m.position ? `${m.keyword} #${m.position}` : m.keyword)).join(', ');
}

export function resultTable(result: TaskResult, width: number): string {
  const rows = result.subTaskList.map((s) => [
    s.prompt,
    platformLabel(s),
    s.mode,
    s.status,
    mentionsCell(s),
    (s.status === 'completed' ? s.answerContent : s.errorMessage) ?? '',
    `${s.referenceList.length}/${s.citationList.length}`,
  ]);
  return [
    `task ${result.taskId}: ${result.status} (${result.completedItems} completed, ${result.failedItems} failed, ${result.totalItems} sub tasks)`,
    renderFitted(RESULT_HEAD, rows, width, GIVE_WAY),
  ].join('\n');
}
