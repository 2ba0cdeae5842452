/**
 * The full result (`GET /task/result/{taskId}`) as a table, JSON or CSV
 * (pure). The CSV has one RFC 4180 record per sub task, without the BOM the
 * export adds for spreadsheets: it is meant for pipes.
 */
import { csvLine, type Cell } from '../../services/api/export/csv.js';
import type { ResultData, SubTaskResult } from '../../services/api/contract.js';
import { platformLabel } from './summary.js';
import { clip, renderTable } from './table.js';

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
  Partial<Pick<SubTaskResult, 'mentioned'>>;

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

export function formatResult(result: TaskResult, format: ResultFormat): string {
  if (format === 'json') return JSON.stringify(result, null, 2);
  if (format === 'csv') return resultCsv(result);
  return resultTable(result);
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

export function resultTable(result: TaskResult): string {
  const rows = result.subTaskList.map((s) => [
    clip(s.prompt, 30),
    platformLabel(s),
    s.mode,
    s.status,
    s.status === 'completed' ? clip(s.answerContent, 60) : clip(s.errorMessage, 60),
    `${s.referenceList.length}/${s.citationList.length}`,
  ]);
  return [
    `task ${result.taskId}: ${result.status} (${result.completedItems} completed, ${result.failedItems} failed, ${result.totalItems} sub tasks)`,
    renderTable(['prompt', 'platform', 'mode', 'status', 'answer / error', 'refs/cited'], rows),
  ].join('\n');
}
