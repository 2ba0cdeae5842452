/**
 * The task events stream in the OpenAPI document (routes/events.ts,
 * progress/): OpenAPI 3.1 cannot type the messages of a text/event-stream, so
 * each event's `data` is a component schema, listed by event name under
 * `x-sse-events`, and the example is a stream written by the service's own
 * frame writer.
 */
import { z } from 'zod';
import { CHANNELS, MODES } from '../shared/platforms.js';
import { SUBTASK_STATUSES, TASK_STATUSES } from '../shared/contracts/status.js';
import { SSE_HEARTBEAT, sseFrame } from './progress/sse-frame.js';
import type { SubTaskChange, TaskDone } from '../shared/contracts/task-progress.js';
import { statusDataSchema } from './contract.js';
import { errorResponses, PROTECTED, TASK_ID_REASON } from './openapi-errors.js';
import { statusExample, submitExample, TASK_ID } from './openapi-examples.js';
import { example, type Json, type SchemaSet } from './openapi-parts.js';
import { SECURITY, taskIdParam } from './openapi-tasks.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

const counters = { totalItems: z.int(), completedItems: z.int(), failedItems: z.int() };

const snapshotSchema = statusDataSchema.meta({
  id: 'TaskEventSnapshot',
  description: '`snapshot`: the data of GET /api/business/monitor/task/status/{taskId}',
});

const subtaskSchema = z
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

const doneSchema = z
  .object({
    taskId: z.uuid(),
    status: z.enum(TASK_STATUSES),
    ...counters,
    completedAt: z.int().nullable(),
  })
  .strict()
  .meta({ id: 'TaskEventDone', description: '`done`: the task is final; the stream ends' });

/** One task from submission to its end, as a client reading from the start sees it. */
function exampleStream(): string {
  const [a, b] = statusExample.subTaskList;
  const moved = (s: typeof a, completed: number, failed: number): SubTaskChange => ({
    taskId: TASK_ID,
    subTaskId: s!.subTaskId,
    platform: s!.platform,
    channel: s!.channel,
    mode: s!.mode,
    status: s!.status,
    taskStatus: completed + failed === 2 ? 'partial_completed' : 'processing',
    totalItems: 2,
    completedItems: completed,
    failedItems: failed,
  });
  const done: TaskDone = {
    taskId: TASK_ID,
    status: statusExample.status,
    totalItems: 2,
    completedItems: 1,
    failedItems: 1,
    completedAt: statusExample.completedAt,
  };
  const start = {
    ...statusExample,
    status: 'pending',
    message: '0/2 completed, 0 failed',
    completedItems: 0,
    failedItems: 0,
    completedAt: null,
    subTaskList: submitExample.subTaskList,
  };
  return [
    sseFrame(1, 'snapshot', start),
    sseFrame(2, 'subtask', moved(a, 1, 0)),
    SSE_HEARTBEAT,
    sseFrame(3, 'subtask', moved(b, 1, 1)),
    sseFrame(4, 'done', done),
  ].join('');
}

export function eventPaths(set: SchemaSet): Json {
  const events = {
    snapshot: set.json(snapshotSchema),
    subtask: set.json(subtaskSchema),
    done: set.json(doneSchema),
  };
  return {
    [openApiPath(PATHS.TASK_EVENTS)]: {
      get: {
        summary: 'Live progress of a task as Server-Sent Events',
        description: [
          'A `text/event-stream` for the task owner. Each message has an `id`, an `event` and one line of JSON `data`:',
          '',
          '- `snapshot` first: the data of the status route (schema `TaskEventSnapshot`);',
          '- `subtask` each time a sub task changes status (schema `TaskEventSubtask`);',
          '- `done` once the task is final (schema `TaskEventDone`); then the stream ends. A task already final gives `snapshot` and `done` at once.',
          '',
          'Reconnecting with `Last-Event-ID` gives a fresh `snapshot` and ids continue after the given one (browsers send it by themselves). A `: ping` comment comes every SSE_HEARTBEAT_MS (15 s by default) so idle proxies keep the connection open. At most SSE_MAX_PER_USER streams (5 by default) per user and api node are open at once: one more is a 429 TOO_MANY_STREAMS.',
          '',
          'A browser `EventSource` cannot send headers: it may give the token as `?access_token=` instead (this route only). Errors (unknown task, the cap) answer the usual envelope before the stream starts.',
        ].join('\n'),
        tags: ['tasks'],
        security: SECURITY,
        parameters: [
          taskIdParam,
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            description: 'The id of the last message received, when reconnecting',
            schema: { type: 'string' },
            example: '2',
          },
          {
            name: 'access_token',
            in: 'query',
            required: false,
            description: 'The access token, for clients that cannot send Authorization',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'The stream (Cache-Control: no-cache; never buffered by proxies)',
            content: {
              'text/event-stream': {
                schema: { type: 'string' },
                'x-sse-events': events,
                examples: example('Two sub tasks, a heartbeat, then done', exampleStream()),
              },
            },
          },
          ...errors(set),
        },
      },
    },
  };
}

function errors(set: SchemaSet) {
  return errorResponses(
    set,
    ['400', '404', ...PROTECTED],
    {
      '400': TASK_ID_REASON,
      '429': 'Rate limited, or too many open streams (TOO_MANY_STREAMS); see Retry-After',
    },
    ['TOO_MANY_STREAMS'],
  );
}
