/**
 * The sub task and task state machines and the counter rules, pure.
 *
 * Sub task: pending → processing → completed | failed | timeout | error, and
 * processing → pending again for a retry round. Task: pending → processing →
 * completed | partial_completed | failed once every sub task is final.
 */
import {
  type SubTaskStatus,
  type TaskStatus,
  FINAL_SUBTASK_STATUSES,
  type FinalSubTaskStatus,
  type FailureStatus,
  type Failure,
} from '../contracts/status.js';

const MOVES: Record<SubTaskStatus, readonly SubTaskStatus[]> = {
  pending: ['processing', 'failed'],
  processing: ['pending', 'completed', 'failed', 'timeout', 'error'],
  completed: [],
  failed: [],
  timeout: [],
  error: [],
};

export function canMove(from: SubTaskStatus, to: SubTaskStatus): boolean {
  return MOVES[from].includes(to);
}

export function isFinalSubTask(status: SubTaskStatus): status is FinalSubTaskStatus {
  return (FINAL_SUBTASK_STATUSES as readonly string[]).includes(status);
}

/** Which counter a final sub task status adds to. */
export function counterFor(status: FinalSubTaskStatus): 'completedItems' | 'failedItems' {
  return status === 'completed' ? 'completedItems' : 'failedItems';
}

/** The final task status once every sub task is final, else undefined. */
export function finalTaskStatus(
  total: number,
  completed: number,
  failed: number,
): TaskStatus | undefined {
  if (completed + failed < total) return undefined;
  if (failed === 0) return 'completed';
  if (completed === 0) return 'failed';
  return 'partial_completed';
}

export type RetryDecision =
  { kind: 'retry'; notBefore: number } | { kind: 'final'; status: FailureStatus };

/**
 * After a failed attempt: a retryable failure goes back to pending with
 * backoff until `maxAttempts` attempts have been made; anything else is final.
 */
export function decideRetry(
  failure: Failure,
  attempts: number,
  maxAttempts: number,
  now: number,
  backoff: (attempt: number) => number,
): RetryDecision {
  if (!failure.retryable || attempts >= maxAttempts)
    return { kind: 'final', status: failure.status };
  const wait = Math.max(backoff(attempts), (failure.retryAfterSeconds ?? 0) * 1000);
  return { kind: 'retry', notBefore: now + wait };
}
