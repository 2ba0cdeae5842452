/**
 * The OpenAPI 3.1 document, generated from the zod schemas that validate
 * requests (services/tasks, services/callbacks, contract.ts) and describe
 * answers (contract.ts). Every status a route can answer is listed with it.
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
  healthDataSchema,
  listDataSchema,
  platformsDataSchema,
  resultDataSchema,
  visibilitySchema,
  statusDataSchema,
  subTaskResultSchema,
  submitDataSchema,
  tokenDataSchema,
  tokenRequestSchema,
} from './contract.js';
import {
  documentedPlatformConfig,
  errorResponses,
  JSON_BODY,
  PROTECTED,
  SchemaSet,
  type Json,
} from './openapi-parts.js';
import { surfacePaths } from './openapi-surfaces.js';
import { exportPath } from './openapi-export.js';

export function buildOpenApi(
  version: string,
  serverUrl: string,
  channelChoices: Readonly<Record<string, string>> = {},
): Json {
  const set = new SchemaSet();
  const security = [{ bearerAuth: [] }];
  const jsonContent = (s: z.ZodType, io: 'input' | 'output' = 'output') => set.content(s, io);
  const errors = errorResponses.bind(null, set);
  const taskIdParam = {
    name: 'taskId',
    in: 'path',
    required: true,
    schema: { type: 'string', format: 'uuid' },
    description: 'Task id (UUID); a non-UUID is a 400',
  };
  const taskRead = (summary: string, data: z.ZodType, extraParams: Json[] = []) => ({
    get: {
      summary,
      tags: ['tasks'],
      security,
      parameters: [taskIdParam, ...extraParams],
      responses: {
        '200': { description: 'Success', ...jsonContent(envelopeOf(data)) },
        ...errors(['400', '404', ...PROTECTED], { '400': 'taskId is not a UUID' }),
      },
    },
  });

  const paths: Json = {
    '/api/business/health': {
      get: {
        summary: 'Liveness of this api node',
        tags: ['service'],
        responses: {
          '200': { description: 'Up', ...jsonContent(envelopeOf(healthDataSchema)) },
          ...errors(['500']),
        },
      },
    },
    '/api/business/openapi.json': {
      get: {
        summary: 'This document',
        tags: ['service'],
        responses: {
          '200': {
            description: 'OpenAPI 3.1 document',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          ...errors(['500']),
        },
      },
    },
    '/api/business/docs': {
      get: {
        summary: 'Interactive documentation of this document',
        tags: ['service'],
        responses: {
          '200': {
            description: 'HTML page',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          ...errors(['500']),
        },
      },
    },
    '/api/business/auth/token': {
      post: {
        summary: 'Exchange an API key for an access token',
        description: 'Public; limited per client address.',
        tags: ['auth'],
        requestBody: { required: true, ...jsonContent(tokenRequestSchema, 'input') },
        responses: {
          '200': { description: 'Token issued', ...jsonContent(envelopeOf(tokenDataSchema)) },
          ...errors([...JSON_BODY, '401', '429', '500', '503'], {
            '401': 'Unknown or revoked API key',
            '429': 'Rate limited per client address; see the Retry-After header',
          }),
        },
      },
    },
    '/api/business/monitor/task/batch/shared': {
      post: {
        summary: 'Submit a batch monitoring task (prompts × platforms)',
        description:
          'Also refused with 400: a regionCode that GET /api/business/eip-edge/ports/city-info does not list with an active port now, a callbackUrl whose host is or resolves to a loopback, private, link-local or reserved address, a channel the platform does not have or a mode its (platform, channel) pair cannot run, and a (platform, channel) pair no live crawler node runs. 429 also when the user has too many unfinished sub tasks (MAX_UNFINISHED_SUBTASKS).',
        tags: ['tasks'],
        security,
        requestBody: { required: true, ...jsonContent(submissionSchema, 'input') },
        responses: {
          '200': {
            description: 'Batch task submitted',
            ...jsonContent(envelopeOf(submitDataSchema)),
          },
          ...errors([...JSON_BODY, ...PROTECTED]),
        },
      },
    },
    '/api/business/monitor/task/status/{taskId}': taskRead(
      'Query task status and progress',
      statusDataSchema,
    ),
    '/api/business/monitor/task/result/{taskId}': taskRead(
      'Full task result (partial while the task runs)',
      resultDataSchema,
    ),
    '/api/business/monitor/task/{taskId}/visibility': taskRead(
      'Brand visibility: per monitorKeywords group and platform, mention rate, rank, share of voice, citation share, and the top cited domains (the visibility of the full result, alone)',
      visibilitySchema,
    ),
    '/api/business/monitor/task/result/{taskId}/{subTaskId}': taskRead(
      'One sub task result',
      subTaskResultSchema,
      [{ name: 'subTaskId', in: 'path', required: true, schema: { type: 'string' } }],
    ),
    ...exportPath(set, taskIdParam, security),
    ...surfacePaths(set, taskIdParam, security),
    '/api/business/monitor/task/result/{taskId}/{subTaskId}/raw': {
      get: {
        summary: 'The raw evidence of a web sub task (the rawEvidence URL of its result)',
        description:
          'What the consumer page sent and every frame its answer stream carried, in arrival order, one JSON object per line (kind request, response, frame or note; binary frames base64). Of the latest attempt that reported, failed ones included. Sent gzip-encoded (Content-Encoding: gzip) when the client accepts gzip. Only the task owner sees it.',
        tags: ['tasks'],
        security,
        parameters: [
          taskIdParam,
          { name: 'subTaskId', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'NDJSON',
            content: { 'application/x-ndjson': { schema: { type: 'string' } } },
          },
          ...errors(['400', '404', ...PROTECTED], {
            '400': 'taskId is not a UUID',
            '404': "Unknown sub task, another user's, or one without raw evidence (API channel)",
          }),
        },
      },
    },
    '/api/business/monitor/task/list': {
      get: {
        summary: "List the caller's tasks, newest first",
        description: 'A parameter given twice is a 400.',
        tags: ['tasks'],
        security,
        parameters: set.queryParams(listQuerySchema),
        responses: {
          '200': { description: 'One page of tasks', ...jsonContent(envelopeOf(listDataSchema)) },
          ...errors(['400', ...PROTECTED]),
        },
      },
    },
    '/api/business/monitor/task/{taskId}/callbacks': {
      get: {
        ...taskRead('', callbackDeliveryDataSchema).get,
        summary: 'Callback delivery state and every attempt of a task',
        tags: ['callbacks'],
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
          ...errors(PROTECTED),
        },
      },
      put: {
        summary: 'Set (or with null clear) the default callback address',
        description:
          'Also refused with 400 when the address is or resolves to a loopback, private, link-local or reserved address.',
        tags: ['callbacks'],
        security,
        requestBody: { required: true, ...jsonContent(defaultCallbackSchema, 'input') },
        responses: {
          '200': {
            description: 'Saved',
            ...jsonContent(envelopeOf(callbackSettingsDataSchema)),
          },
          ...errors([...JSON_BODY, ...PROTECTED]),
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
          ...errors(PROTECTED),
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
          ...errors(PROTECTED),
        },
      },
    },
    '/api/business/monitor/screenshot/{file}': {
      get: {
        summary: 'A stored screenshot (the pageScreenshot URL of a sub task)',
        description: 'No token: the random 128-bit id is the capability.',
        tags: ['tasks'],
        parameters: [
          {
            name: 'file',
            in: 'path',
            required: true,
            schema: { type: 'string' },
            description: 'The 32 hex digits of the screenshot id + .png; any other name is a 404',
          },
        ],
        responses: {
          '200': {
            description: 'PNG image',
            content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
          },
          ...errors(['404', '500'], { '404': 'Unknown screenshot (or not a screenshot name)' }),
        },
      },
    },
    '/api/business/eip-edge/ports/city-info': {
      get: {
        summary: 'Proxy ports and their cities; submit one of their regionCode values',
        description: 'Public: no token. Ordered by regionCode, then port.',
        tags: ['proxies'],
        parameters: set.queryParams(cityInfoQuerySchema),
        responses: {
          '200': { description: 'Proxy ports', ...jsonContent(envelopeOf(cityInfoDataSchema)) },
          ...errors(['400', '429', '500', '503'], {
            '400': 'deduplicate is not true, false, 1 or 0, or is given twice',
            '429': 'Rate limited per client address; see the Retry-After header',
            '503': 'The proxy registry is unreachable',
          }),
        },
      },
    },
  };
  // The submission check runs the catalogue, not a zod enum: document what it enforces.
  set.components.PlatformConfig = set.json(documentedPlatformConfig(channelChoices), 'input');

  return {
    openapi: '3.1.0',
    info: {
      title: 'Batch AI-answer monitoring service',
      version,
      description:
        'Submit prompts × AI platforms, poll status or wait for the callback, read structured answers, sources and citations. Every error is the envelope with code = HTTP status. Request bodies are UTF-8 JSON whose strings are Unicode text: invalid UTF-8 or a lone surrogate escape (\\ud800) is a 400 naming the field. On any path, a method the path does not allow is a 405 with an Allow header, and a method the service does not know (QUERY, PROPFIND, …) is a 501.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: set.components,
    },
  };
}
