/**
 * The API's shapes as the dashboard names them: types derived from the zod
 * schemas of services/shared/contracts/http.ts (type-only imports, so no schema code
 * reaches the bundle), and the events stream's payloads.
 */
import type { z } from 'zod';
import type { ErrorEnvelope, verdictSchema } from '../../services/shared/contracts/http.js';
import { FINAL_TASK_STATUSES } from '../../services/shared/contracts/status.js';

export type {
  KeywordGroup,
  MeData as Me,
  Mention,
  Reference,
  SubTaskResult,
  SubmitData,
  SubTaskSummary,
  TaskListItem,
  TokenData,
  Visibility,
  ListData as TaskPage,
  PlatformEntry as PlatformInfo,
  ProxyPortRecord as CityInfoRecord,
} from '../../services/shared/contracts/http.js';
export type {
  SubTaskChange,
  TaskDone,
  TaskStatusView,
} from '../../services/shared/contracts/task-progress.js';
export { TASK_STATUSES, type TaskStatus } from '../../services/shared/contracts/status.js';
/** Widened to any text, so a status read off the wire can be looked up. */
export const FINAL_TASK: readonly string[] = FINAL_TASK_STATUSES;

/** Whether a submission to the channel is accepted now (null: unknown, the work waits), and what is missing. */
export type ChannelVerdict = z.output<typeof verdictSchema>;

/** One entry of a 400's `errors` list: `platforms[2].mode`, and what is wrong with it. */
export type FieldProblem = NonNullable<ErrorEnvelope['errors']>[number];
