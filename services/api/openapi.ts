/**
 * The OpenAPI 3.1 document, generated from the zod schemas that validate
 * requests (services/tasks) and describe answers (contract.ts).
 */
import { z } from 'zod';
import { submissionSchema } from '../tasks/submission.js';
import { listQuerySchema } from '../tasks/queries.js';
import { cityInfoQuerySchema } from '../proxies/query.js';
import { defaultCallbackSchema } from '../callbacks/address.js';
import {
  callbackDeliveryDataSchema,
  callbackSettingsDataSchema,
  cityInfoDataSchema,
  envelopeOf,
  errorEnvelopeSchema,
  listDataSchema,
  platformsDataSchema,
  resultDataSchema,
  statusDataSchema,
  subTaskResultSchema,
  submitDataSchema,
  tokenDataSchema,
  tokenRequestSchema,
} from './contract.js';

type Json = Record<string, unknown>;

export function buildOpenApi(version: string, serverUrl: string): Json {
  const components: Record<string, Json> = {};
  const schema = (s: z.ZodType, io: 'input' | 'output' = 'output'): Json => {
    const json = z.toJSONSchema(s, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
    }) as Json;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    delete json.$schema;
    for (const [id, def] of Object.entries(defs)) components[id] = toComponentRefs(def);
    return toComponentRefs(json);
  };
  const jsonContent = (s: z.ZodType, io: 'input' | 'output' = 'output') => ({
    content: { 'application/json': { schema: schema(s, io) } },
  });
  const errorResponse = (description: string) => ({
    description,
    ...jsonContent(errorEnvelopeSchema),
  });
  const protectedErrors = {
    '400': errorResponse('Invalid input: every violated rule is listed in `errors`'),
    '401': errorResponse('Missing, invalid or expired token'),
    '429': errorResponse('Rate limited; see the Retry-After header'),
    '500': errorResponse('Internal error; the message carries a request id'),
  };
  const taskIdParam = {
    name: 'taskId',
    in: 'path',
    required: true,
    schema: { type: 'string', format: 'uuid' },
    description: 'Task id (UUID); a non-UUID is a 400',
  };
  const queryParams = (query: z.ZodType) =>
    Object.entries((schema(query, 'input').properties ?? {}) as Record<string, Json>).map(
      ([name, s]) => ({
        name,
        in: 'query',
        required: false,
        schema: s,
        description: s.description,
      }),
    );
  const security = [{ bearerAuth: [] }];

  const paths: Json = {
    '/api/business/auth/token': {
      post: {
        summary: 'Exchange an API key for an access token',
        tags: ['auth'],
        requestBody: { required: true, ...jsonContent(tokenRequestSchema, 'input') },
        responses: {
          '200': { description: 'Token issued', ...jsonContent(envelopeOf(tokenDataSchema)) },
          '400': errorResponse('Malformed request'),
          '401': errorResponse('Invalid or revoked API key'),
        },
      },
    },
    '/api/business/monitor/task/batch/shared': {
      post: {
        summary: 'Submit a batch monitoring task (prompts × platforms)',
        tags: ['tasks'],
        security,
        requestBody: { required: true, ...jsonContent(submissionSchema, 'input') },
        responses: {
          '200': {
            description: 'Batch task submitted',
            ...jsonContent(envelopeOf(submitDataSchema)),
          },
          ...protectedErrors,
          '413': errorResponse('Body larger than the limit (1 MiB by default)'),
          '415': errorResponse('Body is not application/json'),
        },
      },
    },
    '/api/business/monitor/task/status/{taskId}': {
      get: {
        summary: 'Query task status and progress',
        tags: ['tasks'],
        security,
        parameters: [taskIdParam],
        responses: {
          '200': { description: 'Task status', ...jsonContent(envelopeOf(statusDataSchema)) },
          '404': errorResponse('Unknown task (or one of another user)'),
          ...protectedErrors,
        },
      },
    },
    '/api/business/monitor/task/result/{taskId}': {
      get: {
        summary: 'Full task result (partial while the task runs)',
        tags: ['tasks'],
        security,
        parameters: [taskIdParam],
        responses: {
          '200': { description: 'Task result', ...jsonContent(envelopeOf(resultDataSchema)) },
          '404': errorResponse('Unknown task (or one of another user)'),
          ...protectedErrors,
        },
      },
    },
    '/api/business/monitor/task/result/{taskId}/{subTaskId}': {
      get: {
        summary: 'One sub task result',
        tags: ['tasks'],
        security,
        parameters: [
          taskIdParam,
          { name: 'subTaskId', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'Sub task result',
            ...jsonContent(envelopeOf(subTaskResultSchema)),
          },
          '404': errorResponse('Unknown task or sub task'),
          ...protectedErrors,
        },
      },
    },
    '/api/business/monitor/task/list': {
      get: {
        summary: "List the caller's tasks, newest first",
        tags: ['tasks'],
        security,
        parameters: queryParams(listQuerySchema),
        responses: {
          '200': { description: 'One page of tasks', ...jsonContent(envelopeOf(listDataSchema)) },
          ...protectedErrors,
        },
      },
    },
    '/api/business/monitor/task/{taskId}/callbacks': {
      get: {
        summary: 'Callback delivery state and every attempt of a task',
        tags: ['callbacks'],
        security,
        parameters: [taskIdParam],
        responses: {
          '200': {
            description: 'Delivery state',
            ...jsonContent(envelopeOf(callbackDeliveryDataSchema)),
          },
          '404': errorResponse('Unknown task (or one of another user)'),
          ...protectedErrors,
        },
      },
    },
    '/api/business/monitor/callback': {
      get: {
        summary: 'The default callback address and the signing secret',
        tags: ['callbacks'],
        security,
        responses: {
          '200': {
            description: 'Callback settings',
            ...jsonContent(envelopeOf(callbackSettingsDataSchema)),
          },
          ...protectedErrors,
        },
      },
      put: {
        summary: 'Set (or with null clear) the default callback address',
        description:
          'Refused with 400 when the address is not http(s) or resolves to a loopback, private, link-local or reserved address.',
        tags: ['callbacks'],
        security,
        requestBody: { required: true, ...jsonContent(defaultCallbackSchema, 'input') },
        responses: {
          '200': {
            description: 'Saved',
            ...jsonContent(envelopeOf(callbackSettingsDataSchema)),
          },
          ...protectedErrors,
          '413': errorResponse('Body larger than the limit (1 MiB by default)'),
          '415': errorResponse('Body is not application/json'),
        },
      },
    },
    '/api/business/monitor/callback/secret/rotate': {
      post: {
        summary: 'Replace the signing secret; later callbacks are signed with the new one',
        tags: ['callbacks'],
        security,
        responses: {
          '200': {
            description: 'The new secret',
            ...jsonContent(envelopeOf(callbackSettingsDataSchema)),
          },
          ...protectedErrors,
        },
      },
    },
    '/api/business/monitor/platforms': {
      get: {
        summary: 'The platform catalogue: names, aliases and modes',
        tags: ['platforms'],
        security,
        responses: {
          '200': { description: 'Catalogue', ...jsonContent(envelopeOf(platformsDataSchema)) },
          '401': errorResponse('Missing, invalid or expired token'),
        },
      },
    },
    '/api/business/eip-edge/ports/city-info': {
      get: {
        summary: 'Proxy ports and their cities; submit one of their regionCode values',
        description: 'Public: no token. Ordered by regionCode, then port.',
        tags: ['proxies'],
        parameters: queryParams(cityInfoQuerySchema),
        responses: {
          '200': { description: 'Proxy ports', ...jsonContent(envelopeOf(cityInfoDataSchema)) },
          '400': errorResponse('deduplicate is not true, false, 1 or 0'),
          '429': errorResponse('Rate limited per client address; see the Retry-After header'),
          '503': errorResponse('The proxy registry is unreachable'),
        },
      },
    },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Batch AI-answer monitoring service',
      version,
      description:
        'Submit prompts × AI platforms, poll status or wait for the callback, read structured answers, sources and citations.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: components,
    },
  };
}

/** zod names shared schemas under $defs; OpenAPI keeps them under components. */
function toComponentRefs(json: Json): Json {
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
}
