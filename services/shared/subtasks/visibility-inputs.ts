/**
 * What a task's visibility reads of its sub tasks (services/shared/brand/):
 * no answers, only their brand fields and citations and, for the insights,
 * the prompt, discovered brands, references and the insights' digest. A read
 * that has the task's stored insights (stored-insights.ts) leaves those out.
 * One query for the read of a task's visibility and for the sum made when it
 * becomes final, so both see the same sub tasks in the same order.
 */
import type { SubTaskDoc, TaskModels } from './models.js';

const PASS_FIELDS = {
  platform: 1,
  channel: 1,
  mode: 1,
  effectiveMode: 1,
  status: 1,
  mentions: 1,
  citationList: 1,
} as const;

const INSIGHT_FIELDS = {
  ...PASS_FIELDS,
  prompt: 1,
  discovered: 1,
  insightDigest: 1,
  referenceList: 1,
} as const;

export function readVisibilityInputs(
  m: Pick<TaskModels, 'SubTask'>,
  taskId: string,
  { insights }: { insights: boolean },
): Promise<SubTaskDoc[]> {
  return m.SubTask.find({ taskId }, insights ? INSIGHT_FIELDS : PASS_FIELDS).lean<SubTaskDoc[]>();
}
