/** How a delivery looks to its owner (`GET …/task/{taskId}/callbacks`) and operators, pure. */
import { TASK_DELIVERY } from '../shared/contracts/callbacks.js';
import type { DeliveryDoc } from './models.js';

/**
 * `url` without a delivery is the address that would apply now (the task is
 * not finished yet, or it finished before an address applied); null: none.
 */
export function deliveryView(
  subject: { kind: string; subjectId: string },
  d: DeliveryDoc | undefined,
  addressNow: string | null,
  maxAttempts: number,
) {
  return {
    taskId: subject.kind === TASK_DELIVERY ? subject.subjectId : null,
    kind: subject.kind,
    subjectId: subject.subjectId,
    status: d?.status ?? ('NONE' as const),
    url: d?.url ?? addressNow,
    webhookId: d?.webhookId ?? null,
    attemptCount: d ? d.attempts.length : 0,
    maxAttempts,
    nextAttemptAt: d?.nextAttemptAt ?? null,
    createdAt: d?.createdAt ?? null,
    finishedAt: d?.finishedAt ?? null,
    attempts: (d?.attempts ?? []).map((a) => ({
      attempt: a.attempt,
      at: a.at,
      httpStatus: a.httpStatus,
      latencyMs: a.latencyMs,
      error: a.error,
      response: a.response,
    })),
  };
}
