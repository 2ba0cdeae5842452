/**
 * The task events stream in the OpenAPI document (routes/events.ts,
 * progress/). OpenAPI 3.1 describes a `text/event-stream` by the schema of one
 * message, seen as the object of its fields: `id`, `event` and `data`, whose
 * `contentMediaType` is application/json and whose `contentSchema` is the
 * payload's zod schema (services/shared/contracts/task-progress.ts), or
 * `comment` for the heartbeat. One `oneOf` branch per event, told apart by
 * `event`; each example is one message, and the description shows a whole
 * stream written by the service's own frame writer.
 */
import { SSE_HEARTBEAT, sseFrame } from './progress/sse-frame.js';
import {
  subTaskChangeSchema,
  taskDoneSchema,
  type SubTaskChange,
  type TaskDone,
} from '../shared/contracts/task-progress.js';
import { statusDataSchema } from '../shared/contracts/http.js';
import { errorResponses, PROTECTED, TASK_ID_REASON } from './openapi-errors.js';
import { statusExample, submitExample, TASK_ID } from './openapi-examples.js';
import type { Examples, Json, SchemaSet } from './openapi-parts.js';
import { SECURITY, taskIdParam } from './openapi-tasks.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

const snapshotSchema = statusDataSchema.meta({
  id: 'TaskEventSnapshot',
  description: '`snapshot`: the data of GET /api/business/monitor/task/status/{taskId}',
});

/** One message carrying `event` with a JSON `data` of schema `data`. */
function eventMessage(event: string, data: Json, description: string): Json {
  return {
    type: 'object',
    description,
    properties: {
      id: {
        type: 'string',
        pattern: '^[1-9][0-9]*$',
        description: 'Counts up from 1; sent back as Last-Event-ID when reconnecting',
      },
      event: { const: event },
      data: { type: 'string', contentMediaType: 'application/json', contentSchema: data },
    },
    required: ['id', 'event', 'data'],
    additionalProperties: false,
  };
}

const heartbeatMessage: Json = {
  type: 'object',
  description:
    'The heartbeat: the comment line `: ping`, every SSE_HEARTBEAT_MS; no event, clients skip it',
  properties: { comment: { const: 'ping' } },
  required: ['comment'],
  additionalProperties: false,
};

type Message = { id: number; event: string; data: unknown } | 'heartbeat';

/** One task from submission to its end, as a client reading from the start sees it. */
function exampleMessages(): Message[] {
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
    { id: 1, event: 'snapshot', data: start },
    { id: 2, event: 'subtask', data: moved(a, 1, 0) },
    'heartbeat',
    { id: 3, event: 'subtask', data: moved(b, 1, 1) },
    { id: 4, event: 'done', data: done },
  ];
}

/** The stream as the service writes it. */
const exampleStream = (): string =>
  exampleMessages()
    .map((m) => (m === 'heartbeat' ? SSE_HEARTBEAT : sseFrame(m.id, m.event, m.data)))
    .join('');

/** Each kind of message once, as the object of its fields that the schema describes. */
function messageExamples(): Examples {
  const examples: Examples = {};
  for (const m of exampleMessages()) {
    const name = m === 'heartbeat' ? m : m.event;
    examples[name] ??= {
      summary: name === 'heartbeat' ? 'The heartbeat comment' : `A \`${name}\` event`,
      value:
        m === 'heartbeat'
          ? { comment: 'ping' }
          : { id: String(m.id), event: m.event, data: JSON.stringify(m.data) },
    };
  }
  return examples;
}

export function eventPaths(set: SchemaSet): Json {
  const messages = [
    eventMessage('snapshot', set.json(snapshotSchema), '`snapshot`: first, the whole status'),
    eventMessage('subtask', set.json(subTaskChangeSchema), '`subtask`: one sub task moved'),
    eventMessage('done', set.json(taskDoneSchema), '`done`: the task is final; the stream ends'),
    heartbeatMessage,
  ];
  return {
    [openApiPath(PATHS.TASK_EVENTS)]: {
      get: {
        summary: 'Live progress of a task as Server-Sent Events',
        description: [
          'A `text/event-stream` for the task owner. Each message has an `id`, an `event` and one line of JSON `data` (the response schema describes one message as the object of its fields, the JSON of `data` as its `contentSchema`):',
          '',
          '- `snapshot` first: the data of the status route (schema `TaskEventSnapshot`);',
          '- `subtask` each time a sub task changes status (schema `TaskEventSubtask`);',
          '- `done` once the task is final (schema `TaskEventDone`); then the stream ends. A task already final gives `snapshot` and `done` at once.',
          '',
          'Reconnecting with `Last-Event-ID` gives a fresh `snapshot` and ids continue after the given one (browsers send it by themselves). A `: ping` comment comes every SSE_HEARTBEAT_MS (15 s by default) so idle proxies keep the connection open. At most SSE_MAX_PER_USER streams (5 by default) per user and api node are open at once: one more is a 429 TOO_MANY_STREAMS.',
          '',
          'A browser `EventSource` cannot send headers: it may give the token as `?access_token=` instead (this route only). Errors (unknown task, the cap) answer the usual envelope before the stream starts.',
          '',
          'A whole stream (two sub tasks, a heartbeat, then done):',
          '',
          '```',
          exampleStream().trimEnd(),
          '```',
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
                schema: { oneOf: messages },
                examples: messageExamples(),
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
