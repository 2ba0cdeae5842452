/**
 * The status vocabulary every service and crawler node shares: task and sub
 * task statuses (spec 3.2) and how a failed attempt is described.
 */

export const TASK_STATUSES = [
  'pending',
  'processing',
  'completed',
  'partial_completed',
  'failed',
] as const;

export type TaskStatus = (typeof TASK_STATUSES)[number];

export const FINAL_TASK_STATUSES: readonly TaskStatus[] = [
  'completed',
  'partial_completed',
  'failed',
];

export const SUBTASK_STATUSES = [
  'pending',
  'processing',
  'completed',
  'failed',
  'timeout',
  'error',
] as const;

export type SubTaskStatus = (typeof SUBTASK_STATUSES)[number];

export const FINAL_SUBTASK_STATUSES = ['completed', 'failed', 'timeout', 'error'] as const;

export type FinalSubTaskStatus = (typeof FINAL_SUBTASK_STATUSES)[number];

export type FailureStatus = Exclude<FinalSubTaskStatus, 'completed'>;

export interface Failure {
  status: FailureStatus;
  retryable: boolean;
  message: string;
  retryAfterSeconds?: number;
}
