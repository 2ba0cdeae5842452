/**
 * A task's progress as the API shows it: the `data` of
 * `GET /task/status/{taskId}` (services/shared/task-views.ts builds it) and the
 * payloads of its events stream (services/api/progress/). The dashboard and
 * the CLI read the same shapes; the stream's payloads are zod schemas so the
 * OpenAPI document describes them from the same declaration.
 */
import { z } from 'zod';
import { CHANNELS, MODES, type Channel, type Mode } from '../platforms/definition.js';
import { SUBTASK_STATUSES, TASK_STATUSES, type SubTaskStatus, type TaskStatus } from './status.js';

export interface SubTaskSummary {
  subTaskId: string;
  prompt: string;
  platform: string;
  /** null: stored before channels were recorded. */
  channel: Channel | null;
  mode: Mode;
  status: SubTaskStatus;
}

/** `data` of the status route, and of the events stream's `snapshot`. */
export interface TaskStatusView {
  taskId: string;
  /** The submission's name; null: none. */
  name: string | null;
  status: TaskStatus;
  message: string;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  createdAt: number;
  completedAt: number | null;
  subTaskList: SubTaskSummary[];
}

const counters = { totalItems: z.int(), completedItems: z.int(), failedItems: z.int() };

/** `data` of the events stream's `subtask` event: one sub task moved. */
export const subTaskChangeSchema = z
  .object({
    taskId: z.uuid(),
    subTaskId: z.string(),
    platform: z.string(),
    channel: z.enum(CHANNELS).nullable(),
    mode: z.enum(MODES),
    status: z.enum(SUBTASK_STATUSES).meta({ description: 'The sub task status it moved to' }),
    taskStatus: z.enum(TASK_STATUSES),
    ...counters,
  })
  .strict()
  .meta({ id: 'TaskEventSubtask', description: '`subtask`: one sub task changed status' });
export type SubTaskChange = z.infer<typeof subTaskChangeSchema>;

/** `data` of the events stream's `done` event: the task is final. */
export const taskDoneSchema = z
  .object({
    taskId: z.uuid(),
    status: z.enum(TASK_STATUSES),
    ...counters,
    completedAt: z.int().nullable(),
  })
  .strict()
  .meta({ id: 'TaskEventDone', description: '`done`: the task is final; the stream ends' });
export type TaskDone = z.infer<typeof taskDoneSchema>;
