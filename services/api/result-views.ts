/**
 * A task's result and one sub task's result as the API hands them out: the
 * `tasks` service's views with absolute screenshot URLs and the raw evidence
 * links. The REST routes and the MCP tools read them here, so both show the
 * same thing.
 */
import type { ResultData, SubTaskResult } from '../shared/contracts/http.js';
import { absoluteScreenshot } from '../shared/task-views.js';
import type { Backend } from './backend.js';
import { linkRawEvidence, type EvidenceReader } from './raw-evidence.js';

export interface ViewReader {
  backend: Backend;
  evidence: EvidenceReader;
  /** The service's public base URL, which absolute links start with. */
  base: string;
}

export async function taskResultView(
  r: ViewReader,
  userId: number,
  taskId: string | undefined,
): Promise<ResultData> {
  const data = await r.backend.call<ResultData>('tasks.result', { userId, taskId });
  data.subTaskList.forEach((s) => absoluteScreenshot(s, r.base));
  await linkRawEvidence(r.evidence, data.taskId, data.subTaskList, r.base);
  return data;
}

export async function subTaskResultView(
  r: ViewReader,
  userId: number,
  taskId: string | undefined,
  subTaskId: string | undefined,
): Promise<SubTaskResult> {
  const data = await r.backend.call<SubTaskResult>('tasks.subTaskResult', {
    userId,
    taskId,
    subTaskId,
  });
  absoluteScreenshot(data, r.base);
  // Found, so the id is a valid UUID; the link uses its canonical (lower-case) form.
  await linkRawEvidence(r.evidence, taskId!.toLowerCase(), [data], r.base);
  return data;
}
