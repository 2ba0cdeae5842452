/**
 * Callbacks in the OpenAPI document: the routes that set the default
 * address, show the signing secret and each task's deliveries, and the
 * completion callback itself as an OpenAPI 3.1 webhook, with its Standard
 * Webhooks signature headers (services/shared/webhooks/sign.ts, services/callbacks/payload.ts).
 */
import { z } from 'zod';
import { defaultCallbackSchema } from '../shared/webhooks/address.js';
import { signature, webhookIdFor } from '../shared/webhooks/sign.js';
import { FINAL_TASK_STATUSES } from '../shared/contracts/status.js';
import { TASK_DELIVERY } from '../shared/contracts/callbacks.js';
import {
  callbackDeliveryDataSchema,
  callbackSettingsDataSchema,
  envelopeOf,
  subTaskResultSchema,
  visibilitySchema,
} from '../shared/contracts/http.js';
import { errorResponses, JSON_BODY, PROTECTED, TASK_ID_REASON } from './openapi-errors.js';
import {
  callbackDeliveryExample,
  callbackSettingsExample,
  envelope,
  resultExample,
  SECRET_EXAMPLE,
  TASK_ID,
} from './openapi-examples.js';
import { example, type Json, type SchemaSet } from './openapi-parts.js';
import { SECURITY, taskIdParam } from './openapi-tasks.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

const int = () => z.int();

/** The body of spec 6.3, as payload.ts builds it. */
export const callbackPayloadSchema = z
  .object({
    taskId: z.uuid(),
    userId: int(),
    timestamp: int().meta({ description: 'Send time of this attempt, ms since the epoch' }),
    status: z.enum(FINAL_TASK_STATUSES as [string, ...string[]]),
    totalItems: int(),
    completedItems: int(),
    failedItems: int(),
    subTaskList: z.array(subTaskResultSchema).meta({
      description:
        'As the full result shows them; screenshot and raw evidence URLs are absolute (PUBLIC_BASE_URL)',
    }),
    visibility: visibilitySchema,
    name: z.string().nullable().meta({
      description: "The submission's optional name (an extension of spec 6.3); null: none",
    }),
  })
  .strict()
  .meta({ id: 'CallbackPayload' });

const SENT_AT = resultExample.subTaskList[1]!.time! + 20;

const payloadExample = {
  taskId: TASK_ID,
  userId: 42,
  timestamp: SENT_AT,
  status: resultExample.status,
  totalItems: resultExample.totalItems,
  completedItems: resultExample.completedItems,
  failedItems: resultExample.failedItems,
  subTaskList: resultExample.subTaskList,
  visibility: resultExample.visibility,
  name: resultExample.name,
} satisfies z.output<typeof callbackPayloadSchema>;

/**
 * The three signature headers of a webhook, with the real signature of the
 * example body (serialised without spaces) under the example secret.
 */
export function signedHeaderParams(
  subject: { kind: string; subjectId: string },
  idDescription: string,
  body: unknown,
  sentAt: number,
): Json[] {
  const id = webhookIdFor(subject.kind, subject.subjectId);
  const seconds = Math.floor(sentAt / 1000);
  return [
    headerParam('webhook-id', idDescription, { type: 'string', pattern: '^msg_' }, id),
    headerParam(
      'webhook-timestamp',
      'Send time of the attempt, seconds since the epoch',
      { type: 'string', pattern: '^[0-9]+$' },
      String(seconds),
    ),
    headerParam(
      'webhook-signature',
      '`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`; space-separated when there are several',
      { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
      signature(SECRET_EXAMPLE, id, seconds, JSON.stringify(body)),
    ),
  ];
}

export function headerParam(name: string, description: string, schema: Json, value: string) {
  return { name, in: 'header', required: true, description, schema, example: value };
}

export function callbackWebhooks(set: SchemaSet): Json {
  return {
    taskFinished: {
      post: {
        summary: 'Completion callback: POSTed to your address when the task is final',
        description:
          "Sent once every sub task is final, to the submission's callbackUrl, else the default address (PUT /api/business/monitor/callback), else not at all. A 2xx answer ends the delivery; anything else (another status, a redirect, which is never followed, no connection within 10 s, no whole answer within 30 s) is retried after 15 s, 1 min, 5 min, 15 min, 1 h, 4 h and 12 h, then the delivery is FAILED. " +
          'Every attempt is signed (Standard Webhooks): verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<raw body>` with HMAC-SHA256 keyed by the base64-decoded part of your secret after `whsec_` (GET /api/business/monitor/callback), refuse timestamps more than 5 minutes from now, and handle each `webhook-id` once (retries repeat it). ' +
          `The example headers are the real signature of the example body (serialised without spaces) under the secret ${SECRET_EXAMPLE}.`,
        tags: ['callbacks'],
        parameters: signedHeaderParams(
          { kind: TASK_DELIVERY, subjectId: TASK_ID },
          '`msg_<taskId>`, the same on every attempt: deduplicate by it',
          payloadExample,
          SENT_AT,
        ),
        requestBody: {
          required: true,
          ...set.content(callbackPayloadSchema, example('A partly completed task', payloadExample)),
        },
        responses: {
          '2XX': { description: 'Received: the delivery succeeded; the answer body is ignored' },
          default: { description: 'Any other answer, or none in time: the attempt is retried' },
        },
      },
    },
  };
}

/** A task's callback delivery, as its owner and operators read it. */
export function deliveryAnswer(set: SchemaSet): Json {
  return {
    description: 'Success',
    ...set.content(
      envelopeOf(callbackDeliveryDataSchema),
      example('Delivered at the second attempt', envelope(callbackDeliveryExample)),
    ),
  };
}

export function callbackPaths(set: SchemaSet): Json {
  const errors = errorResponses.bind(null, set);
  const settings = (description: string, summary: string, message?: string) => ({
    description,
    ...set.content(
      envelopeOf(callbackSettingsDataSchema),
      example(summary, envelope(callbackSettingsExample, message)),
    ),
  });
  return {
    [openApiPath(PATHS.TASK_CALLBACKS)]: {
      get: {
        summary: 'Callback delivery state and every attempt of a task',
        tags: ['callbacks'],
        security: SECURITY,
        parameters: [taskIdParam],
        responses: {
          '200': deliveryAnswer(set),
          ...errors(['400', '404', ...PROTECTED], { '400': TASK_ID_REASON }),
        },
      },
    },
    [openApiPath(PATHS.CALLBACK)]: {
      get: {
        summary: 'The default callback address and the signing secret',
        tags: ['callbacks'],
        security: SECURITY,
        responses: {
          '200': settings('Callback settings', 'A default address is set'),
          ...errors(PROTECTED),
        },
      },
      put: {
        summary: 'Set (or with null clear) the default callback address',
        description:
          'Also refused with 400 when the address is or resolves to a loopback, private, link-local or reserved address.',
        tags: ['callbacks'],
        security: SECURITY,
        requestBody: {
          required: true,
          ...set.content(
            defaultCallbackSchema,
            {
              set: {
                summary: 'Set the address',
                value: { callbackUrl: callbackSettingsExample.callbackUrl },
              },
              clear: { summary: 'Remove it', value: { callbackUrl: null } },
            },
            'input',
          ),
        },
        responses: {
          '200': settings('Saved', 'Saved', 'default callback address saved'),
          ...errors([...JSON_BODY, ...PROTECTED]),
        },
      },
    },
    [openApiPath(PATHS.CALLBACK_SECRET_ROTATE)]: {
      post: {
        summary: 'Replace the signing secret; later callbacks are signed with the new one',
        tags: ['callbacks'],
        security: SECURITY,
        responses: {
          '200': settings('The new secret', 'Rotated', 'signing secret rotated'),
          ...errors(PROTECTED),
        },
      },
    },
  };
}
