/**
 * The routes of issue 15 in the OpenAPI document: the health probes, `/metrics`,
 * `me` and the operator routes (the events stream is in openapi-events.ts).
 */
import { collectorsDataSchema, envelopeOf, meDataSchema } from '../shared/contracts/http.js';
import { collectorsQuerySchema } from '../shared/requests/collectors-query.js';
import { errorResponses, PROTECTED, TASK_ID_REASON } from './openapi-errors.js';
import { deliveryAnswer } from './openapi-callbacks.js';
import { cityInfoExample, envelope } from './openapi-examples.js';
import { example, type Json, type SchemaSet } from './openapi-parts.js';
import { SECURITY, taskIdParam } from './openapi-tasks.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

const anyJson = (description: string, value: unknown): Json => ({
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
      examples: example(description, value),
    },
  },
  description,
});

export function surfacePaths(set: SchemaSet): Json {
  const errors = errorResponses.bind(null, set);
  const operatorGet = (summary: string, value: unknown): Json => ({
    get: {
      summary,
      tags: ['operator'],
      security: SECURITY,
      responses: {
        '200': anyJson('Success', envelope(value)),
        ...errors(['403', ...PROTECTED]),
      },
    },
  });
  const { regionCode, outIp, port, province, city } = cityInfoExample[0]!;
  const portExample = { key: `10.0.0.5:${port}`, port, province, city, regionCode, outIp };
  return {
    [openApiPath(PATHS.HEALTH_LIVE)]: {
      get: {
        summary: 'Liveness probe: the process answers',
        tags: ['service'],
        responses: {
          '200': anyJson('Live', envelope({ status: 'live', version: '0.1.0' })),
          ...errors(['500']),
        },
      },
    },
    [openApiPath(PATHS.HEALTH_READY)]: {
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
    [openApiPath(PATHS.METRICS)]: {
      get: {
        summary: "Prometheus figures of the cluster's work (no token; keep it inside the cluster)",
        description:
          'Sub tasks by platform, channel and status, answer time histograms, queue depth and running leases, web-channel attempts by outcome (`aimon_web_outcomes_total`, a counter), callback attempts by outcome, proxy ports and accounts by state, and whether each source answered (`aimon_figures_up`). Read from MongoDB and the crawler nodes, so every api node reports the same figures; gathered at most every `METRICS_CACHE_MS`.',
        tags: ['service'],
        responses: {
          '200': {
            description: 'The Prometheus text exposition format',
            content: {
              'text/plain; version=0.0.4; charset=utf-8': {
                schema: { type: 'string' },
                examples: example(
                  'After a batch',
                  [
                    '# HELP aimon_queue_depth Sub tasks waiting for a crawler node (pending)',
                    '# TYPE aimon_queue_depth gauge',
                    'aimon_queue_depth 0',
                    '# TYPE aimon_subtasks gauge',
                    'aimon_subtasks{platform="deepseek",channel="api",status="completed"} 12',
                    '',
                  ].join('\n'),
                ),
              },
            },
          },
          ...errors(['500']),
        },
      },
    },
    [openApiPath(PATHS.ME)]: {
      get: {
        summary: "The token's user and role",
        tags: ['auth'],
        security: SECURITY,
        responses: {
          '200': {
            description: 'Success',
            ...set.content(
              envelopeOf(meDataSchema),
              example('A user', envelope({ userId: 1, name: 'acme', role: 'user' })),
            ),
          },
          ...errors(PROTECTED),
        },
      },
    },
    [openApiPath(PATHS.OPERATOR_NODES)]: operatorGet('Crawler nodes: regions, capacity, running', [
      {
        nodeId: 'crawler-sh',
        regions: ['310000'],
        capacity: 20,
        running: 7,
        platforms: ['chatgpt', 'deepseek'],
        channels: ['api', 'web'],
        ports: 2,
        activePorts: 2,
        available: true,
      },
    ]),
    [openApiPath(PATHS.OPERATOR_PORTS)]: operatorGet('Proxy ports and their health', [
      {
        nodeId: 'crawler-sh',
        ...portExample,
        active: true,
        checkedAt: 1_767_225_600_000,
        observedIp: portExample.outIp,
        error: null,
      },
    ]),
    [openApiPath(PATHS.OPERATOR_ACCOUNTS)]: operatorGet('Web-channel accounts and their states', [
      { id: 'acc_deepseek_1', platform: 'deepseek', label: 'team account 1', state: 'healthy' },
    ]),
    [openApiPath(PATHS.OPERATOR_COLLECTORS)]: {
      get: {
        summary: 'Web-channel collector health per platform × region × account',
        description:
          'Attempts tried and answered, login walls, captchas, rate limits and drift (running totals), the last success and failure, and the attempts of the last hour with their failure messages. A site whose recent attempts all failed with drift among them is `drifting` and listed first. The same totals are `aimon_web_outcomes_total` on `/metrics`.',
        tags: ['operator'],
        security: SECURITY,
        parameters: set.queryParams(collectorsQuerySchema),
        responses: {
          '200': {
            description: 'Success',
            ...set.content(
              envelopeOf(collectorsDataSchema),
              example('One drifting account', envelope(collectorsExample)),
            ),
          },
          ...errors(['400', '403', ...PROTECTED], {
            '400': {
              text: 'platform has no web channel, regionCode is not 2 to 12 digits, or either is given twice (every problem is listed)',
              example: {
                message:
                  'invalid request: platform: must be a platform with a web channel: deepseek, …; regionCode: must be a string',
                errors: [
                  {
                    field: 'platform',
                    message: 'must be a platform with a web channel: deepseek, …',
                  },
                  { field: 'regionCode', message: 'must be a string' },
                ],
              },
            },
          }),
        },
      },
    },
    [openApiPath(PATHS.OPERATOR_TASK_CALLBACKS)]: {
      get: {
        summary: "The callback deliveries of any user's task",
        tags: ['operator'],
        security: SECURITY,
        parameters: [taskIdParam],
        responses: {
          '200': deliveryAnswer(set),
          ...errors(['400', '404', '403', ...PROTECTED], { '400': TASK_ID_REASON }),
        },
      },
    },
  };
}

const collectorsExample = {
  generatedAt: 1_767_225_600_000,
  recentMinutes: 60,
  collectors: [
    {
      platform: 'kimi',
      regionCode: '310100',
      accountId: 'acc_kimi_1',
      tried: 40,
      answered: 31,
      answeredFromPage: 1,
      outcomes: {
        answered: 31,
        login_wall: 1,
        captcha: 0,
        rate_limited: 2,
        drift: 6,
        refused: 0,
        timeout: 0,
        error: 0,
      },
      lastAttemptAt: 1_767_225_590_000,
      lastSuccessAt: 1_767_222_000_000,
      lastFailure: {
        outcome: 'drift',
        message: 'control_missing: kimi deep-thinking',
        at: 1_767_225_590_000,
      },
      recent: {
        tried: 6,
        outcomes: {
          answered: 0,
          login_wall: 0,
          captcha: 0,
          rate_limited: 0,
          drift: 6,
          refused: 0,
          timeout: 0,
          error: 0,
        },
        signals: [
          {
            outcome: 'drift',
            signal: 'control_missing: kimi deep-thinking',
            count: 6,
            lastAt: 1_767_225_590_000,
          },
        ],
      },
      drifting: true,
    },
  ],
};
