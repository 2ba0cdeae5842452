/**
 * The callback body (spec 6.3), pure: the task's counters and its sub tasks in
 * exactly the structure of the full-result endpoint, built by the same view.
 */
import { absoluteScreenshot, type TaskResultView } from '../shared/task-views.js';
import { rawEvidenceUrl } from '../shared/evidence.js';

/** `withEvidence`: the sub tasks whose raw evidence is stored (web attempts). */
export function callbackBody(
  view: TaskResultView,
  userId: number,
  sentAt: number,
  screenshotBase: string,
  withEvidence: ReadonlySet<string> = new Set(),
): string {
  return JSON.stringify({
    taskId: view.taskId,
    userId,
    timestamp: sentAt,
    status: view.status,
    totalItems: view.totalItems,
    completedItems: view.completedItems,
    failedItems: view.failedItems,
    subTaskList: view.subTaskList.map((s) => ({
      ...absoluteScreenshot(s, screenshotBase),
      rawEvidence: rawEvidenceUrl(withEvidence, screenshotBase, view.taskId, s.subTaskId),
    })),
    visibility: view.visibility,
    // Extensions after the fields of spec 6.3, in its order.
    name: view.name,
  });
}
