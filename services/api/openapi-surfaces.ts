/**
 * The routes of issue 15 in the OpenAPI document: the task events stream,
 * the health probes, `me` and the operator routes.
 */
import { errorResponses, PROTECTED, type Json, type SchemaSet } from './openapi-parts.js';

const anyJson = (description: string, example: unknown): Json => ({
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          success: { type: 'boolean' },
          code: { type: 'integer' },
          message: { type: 'string' },
          data: {},
        },
      },
      example,
    },
  },
  description,
});

const envelope = (data: unknown) => ({ success: true, code: 200, message: 'success', data });

export function surfacePaths(set: SchemaSet, taskIdParam: Json, security: Json[]): Json {
  const errors = errorResponses.bind(null, set);
  const operatorGet = (summary: string, example: unknown, taskParam?: Json): Json => ({
    get: {
      summary,
      tags: ['operator'],
      security,
      parameters: taskParam ? [taskParam] : [],
      responses: {
        '200': anyJson('Success', envelope(example)),
        ...errors([...(taskParam ? (['400', '404'] as const) : []), '403', ...PROTECTED]),
      },
    },
  });
  return {
    '/api/business/monitor/task/{taskId}/events': {
      get: {
        summary: 'Live progress of a task as Server-Sent Events',
        description:
          'Events: `snapshot` first (the data of the status route), then `subtask` per sub task status change ({taskId, subTaskId, platform, channel, mode, status, taskStatus, totalItems, completedItems, failedItems}), then `done` ({taskId, status, totalItems, completedItems, failedItems, completedAt}) when the task is final, after which the stream ends. ' +
          'Reconnect with Last-Event-ID: a fresh snapshot, ids continue after it. A `: ping` comment every SSE_HEARTBEAT_MS. At most SSE_MAX_PER_USER open streams per user and api node (429 TOO_MANY_STREAMS). ' +
          'The token may also be given as `?access_token=` (EventSource cannot send headers).',
        tags: ['tasks'],
        security,
        parameters: [
          taskIdParam,
          { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
          { name: 'access_token', in: 'query', required: false, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The stream',
            content: {
              'text/event-stream': {
                schema: { type: 'string' },
                example:
                  'id: 1\nevent: snapshot\ndata: {"taskId":"…","status":"processing","subTaskList":[…]}\n\n' +
                  'id: 2\nevent: subtask\ndata: {"subTaskId":"…","status":"completed","completedItems":1,…}\n\n' +
                  'id: 3\nevent: done\ndata: {"status":"completed","completedItems":1,"failedItems":0,…}\n\n',
              },
            },
          },
          ...errors(['400', '404', ...PROTECTED], {
            '429': 'Rate limited, or too many open streams (TOO_MANY_STREAMS); see Retry-After',
          }),
        },
      },
    },
    '/api/business/health/live': {
      get: {
        summary: 'Liveness probe: the process answers',
        tags: ['service'],
        responses: { '200': anyJson('Live', envelope({ status: 'live', version: '0.1.0' })) },
      },
    },
    '/api/business/health/ready': {
      get: {
        summary: 'Readiness probe: MongoDB, the transporter and the services the api calls',
        tags: ['service'],
        responses: {
          '200': anyJson(
            'Ready',
            envelope({ ready: true, checks: [{ name: 'mongodb', ok: true }] }),
          ),
          '503': anyJson('Not ready: the failing checks are listed', {
            success: false,
            code: 503,
            message: 'not ready',
            data: {
              ready: false,
              checks: [{ name: 'service:tasks', ok: false, detail: 'no node runs it' }],
            },
          }),
        },
      },
    },
    '/api/business/monitor/me': {
      get: {
        summary: "The token's user and role",
        tags: ['auth'],
        security,
        responses: {
          '200': anyJson('Success', envelope({ userId: 1, name: 'acme', role: 'user' })),
          ...errors(PROTECTED),
        },
      },
    },
    '/api/business/operator/nodes': operatorGet('Crawler nodes: regions, capacity, running', [
      { nodeId: 'crawler-sh', regions: ['310000'], capacity: 20, running: 7, activePorts: 2 },
    ]),
    '/api/business/operator/ports': operatorGet('Proxy ports and their health', [
      { nodeId: 'crawler-sh', key: '10.0.0.5:8001', port: 8001, active: true, checkedAt: 0 },
    ]),
    '/api/business/operator/accounts': operatorGet('Web-channel accounts and their states', [
      { accountId: '…', platform: 'doubao', state: 'healthy' },
    ]),
    '/api/business/operator/task/{taskId}/callbacks': operatorGet(
      "The callback deliveries of any user's task",
      { taskId: '…', state: 'delivered', attempts: [] },
      taskIdParam,
    ),
  };
}
