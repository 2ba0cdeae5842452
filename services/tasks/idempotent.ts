/**
 * A submission with an Idempotency-Key: its task id comes from the user and
 * the key, so a retry meets the task its first try created. The retry is
 * answered as the first try was (the same task, its sub tasks as planned),
 * whether it arrives after the first try ended or while it is still being
 * written; the same key with another request body is refused (422), as the
 * IETF draft on the header asks.
 */
import { AppError, type FieldProblem } from '../shared/errors.js';
import { taskIdForKey } from '../shared/ids.js';
import {
  checkIdempotencyKey,
  IDEMPOTENCY_HEADER,
  requestFingerprint,
} from '../shared/requests/idempotency.js';
import type { SubTaskDoc, TaskDoc } from '../shared/subtasks/models.js';
import { planSubTasks } from './plan.js';

export interface Keyed {
  taskId: string;
  fingerprint: string;
}

/** The keyed submission, a problem with its key, or neither (no key). */
export function keyedSubmission(
  userId: number,
  key: string | undefined,
  body: unknown,
): { keyed?: Keyed; problem?: FieldProblem } {
  const checked = checkIdempotencyKey(key);
  if (!checked) return {};
  if ('problem' in checked) return { problem: checked.problem };
  return {
    keyed: { taskId: taskIdForKey(userId, checked.key), fingerprint: requestFingerprint(body) },
  };
}

/**
 * The first answer's task and sub tasks, as they were planned, for a keyed
 * retry; throws when the key came with another request.
 */
export function replay(task: TaskDoc, keyed: Keyed): { task: TaskDoc; subtasks: SubTaskDoc[] } {
  if (task.requestFingerprint !== keyed.fingerprint) {
    throw new AppError(
      `this ${IDEMPOTENCY_HEADER} was sent with another request (task ${task._id}): a new request needs a new key`,
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
  }
  const planned = { ...task, status: 'pending' as const };
  return { task: planned, subtasks: planSubTasks(planned) };
}
