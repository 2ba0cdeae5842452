/**
 * The task routes in the OpenAPI document (services/api/routes/tasks.ts):
 * submit, status, results, visibility, raw evidence and the list.
 */
import type { z } from 'zod';
import { submissionSchema } from '../shared/requests/submission.js';
import { listQuerySchema } from '../shared/requests/task-queries.js';
import { IDEMPOTENCY_HEADER, KEY_PATTERN, MAX_KEY_LENGTH } from '../shared/requests/idempotency.js';
import {
  envelopeOf,
  listDataSchema,
  resultDataSchema,
  statusDataSchema,
  subTaskResultSchema,
  submitDataSchema,
  visibilitySchema,
} from '../shared/contracts/http.js';
import { errorResponses, JSON_BODY, PROTECTED, TASK_ID_REASON } from './openapi-errors.js';
import {
  envelope,
  listExample,
  resultExample,
  statusExample,
  submissionExample,
  submitExample,
  subTaskResultExample,
  TASK_ID,
  visibilityExample,
  fallbackVisibilityExample,
} from './openapi-examples.js';
import { example, type Examples, type Json, type SchemaSet } from './openapi-parts.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

export const taskIdParam = {
  name: 'taskId',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
  description: 'Task id (UUID); a non-UUID is a 400',
  example: TASK_ID,
};

export const subTaskIdParam = {
  name: 'subTaskId',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  example: subTaskResultExample.subTaskId,
};

export const SECURITY = [{ bearerAuth: [] }];

/** Spec extension: safe retries of a submission (services/shared/requests/idempotency.ts). */
const IDEMPOTENCY_KEY_PARAM = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes retrying a submission safe: a client that got no answer (a timeout, a 503) sends the same request again with the same key and gets the task the first try created, never a second task. 1 to 255 printable ASCII characters (a UUID per submission is a good key), scoped to the user, kept as long as the task. The same key with another request body is refused with 422.',
  schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: KEY_PATTERN },
  example: '8e0c1c4e-2b47-4f1e-9d0e-0e8a7c1b2f3a',
};

const RAW_EXAMPLE = [
  { t: 0, kind: 'request', url: 'https://chat.example.com/api/chat', method: 'POST' },
  {
    t: 210,
    kind: 'response',
    url: 'https://chat.example.com/api/chat',
    status: 200,
    mimeType: 'text/event-stream',
  },
  { t: 260, kind: 'frame', data: 'data: {"v":"For a team of ten"}' },
  { t: 4100, kind: 'note', text: 'captcha shown; attempt given up' },
]
  .map((line) => JSON.stringify(line))
  .join('\n');

export function taskPaths(set: SchemaSet): Json {
  const errors = errorResponses.bind(null, set);
  const taskRead = (
    summary: string,
    data: z.ZodType,
    value: unknown,
    extra: Json[] = [],
    more: Examples = {},
  ) => ({
    get: {
      summary,
      tags: ['tasks'],
      security: SECURITY,
      parameters: [taskIdParam, ...extra],
      responses: {
        '200': {
          description: 'Success',
          ...set.content(envelopeOf(data), { ...example(summary, envelope(value)), ...more }),
        },
        ...errors(['400', '404', ...PROTECTED], { '400': TASK_ID_REASON }),
      },
    },
  });

  return {
    [openApiPath(PATHS.TASK_SUBMIT)]: {
      post: {
        summary: 'Submit a batch monitoring task (prompts × platforms)',
        description:
          'Also refused with 400: a regionCode that GET /api/business/eip-edge/ports/city-info does not list with an active port now, a callbackUrl whose host is or resolves to a loopback, private, link-local or reserved address, a channel the platform does not have or a mode its (platform, channel) pair cannot run, and a (platform, channel) pair no live crawler node runs. 429 also when the user has too many unfinished sub tasks (MAX_UNFINISHED_SUBTASKS).',
        tags: ['tasks'],
        security: SECURITY,
        parameters: [IDEMPOTENCY_KEY_PARAM],
        requestBody: {
          required: true,
          ...set.content(
            submissionSchema,
            example('One prompt on two platforms, in Shanghai', submissionExample),
            'input',
          ),
        },
        responses: {
          '200': {
            description:
              'Batch task submitted; or, to a retry with the Idempotency-Key of an earlier submission, that submission’s answer again (same taskId and sub task ids, nothing new stored), with the Idempotent-Replayed header',
            headers: {
              'Idempotent-Replayed': {
                description:
                  '`true` when this answers a retry of an earlier submission with the same Idempotency-Key',
                schema: { type: 'string', enum: ['true'] },
              },
            },
            ...set.content(
              envelopeOf(submitDataSchema),
              example('Submitted', envelope(submitExample, 'batch task submitted')),
            ),
          },
          ...errors([...JSON_BODY, '422', ...PROTECTED], {}, [
            'TOO_MANY_UNFINISHED',
            'IDEMPOTENCY_KEY_REUSED',
          ]),
        },
      },
    },
    [openApiPath(PATHS.TASK_STATUS)]: taskRead(
      'Query task status and progress',
      statusDataSchema,
      statusExample,
    ),
    [openApiPath(PATHS.TASK_RESULT)]: taskRead(
      'Full task result (partial while the task runs)',
      resultDataSchema,
      resultExample,
    ),
    [openApiPath(PATHS.TASK_VISIBILITY)]: taskRead(
      'Brand visibility: per monitorKeywords group and platform, mention rate, position among all the brands the answers recommend (average, best, top-1 and top-3 shares), rank among the groups, share of voice, citation share, the top cited domains, the discovered brands (recommended, not watched) and the citation opportunities (domains cited where competitors are named and the first group is not); rows by group, then platform name, then channel, then the mode that ran (the visibility of the full result, alone)',
      visibilitySchema,
      visibilityExample,
      [],
      {
        fallback: {
          summary: 'A search sub task that silently ran without the search counts as standard',
          value: envelope(fallbackVisibilityExample),
        },
      },
    ),
    [openApiPath(PATHS.SUBTASK_RESULT)]: taskRead(
      'One sub task result',
      subTaskResultSchema,
      subTaskResultExample,
      [subTaskIdParam],
    ),
    [openApiPath(PATHS.SUBTASK_RAW)]: {
      get: {
        summary: 'The raw evidence of a web sub task (the rawEvidence URL of its result)',
        description:
          'What the consumer page sent and every frame its answer stream carried, in arrival order, one JSON object per line (kind request, response, frame or note; binary frames base64; kind dom: the HTML of the answer element once answered, scripts removed). Of the latest attempt that reported, failed ones included. Sent gzip-encoded (Content-Encoding: gzip) when the client accepts gzip. Only the task owner sees it.',
        tags: ['tasks'],
        security: SECURITY,
        parameters: [taskIdParam, subTaskIdParam],
        responses: {
          '200': {
            description: 'NDJSON',
            content: {
              'application/x-ndjson': {
                schema: { type: 'string' },
                examples: example('A web attempt cut short', RAW_EXAMPLE),
              },
            },
          },
          ...errors(['400', '404', ...PROTECTED], {
            '400': TASK_ID_REASON,
            '404': "Unknown sub task, another user's, or one without raw evidence (API channel)",
          }),
        },
      },
    },
    [openApiPath(PATHS.TASK_LIST)]: {
      get: {
        summary: "List the caller's tasks, newest first",
        description: 'A parameter given twice is a 400.',
        tags: ['tasks'],
        security: SECURITY,
        parameters: set.queryParams(listQuerySchema),
        responses: {
          '200': {
            description: 'One page of tasks',
            ...set.content(
              envelopeOf(listDataSchema),
              example('First page', envelope(listExample)),
            ),
          },
          ...errors(['400', ...PROTECTED]),
        },
      },
    },
  };
}
