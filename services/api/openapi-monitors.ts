/**
 * The monitor routes in the OpenAPI document (services/api/routes/monitors.ts,
 * docs/monitors.md): CRUD, run now and the runs with their figures.
 */
import type { z } from 'zod';
import { monitorInputSchema } from '../shared/requests/monitor.js';
import { watchInputSchema } from '../shared/requests/monitor-watch.js';
import { pageQuerySchema } from '../shared/requests/task-queries.js';
import { envelopeOf } from '../shared/contracts/http.js';
import {
  monitorListSchema,
  monitorViewSchema,
  runListSchema,
  runViewSchema,
  watchResultSchema,
  type MonitorView,
  type RunView,
} from '../shared/contracts/monitors.js';
import { errorResponses, JSON_BODY, PROTECTED, type Reason } from './openapi-errors.js';
import { envelope, TASK_ID } from './openapi-examples.js';
import { example, type Json, type SchemaSet } from './openapi-parts.js';
import { SECURITY } from './openapi-tasks.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

export const MONITOR_ID = '0b6f3f3e-8a55-4a8e-9a63-3c1f0d1f9e21';
export const RUN_ID = '5d0a4b8e-2f7c-4c55-8d2e-9e7a1b3c4d5f';
const FOLLOW_UP_IDS = [
  '7c1e2d3f-4a5b-4c6d-8e7f-1a2b3c4d5e6f',
  '8d2f3e4a-5b6c-4d7e-9f8a-2b3c4d5e6f7a',
] as const;
export const CREATED = 1_774_000_000_000;

const inputExample = {
  name: 'CRM shortlist, daily',
  prompts: ['Which CRM suits a team of ten?', { text: 'Best CRM for a bakery?', tags: ['smb'] }],
  platforms: [{ platform: 'chatgpt', channel: 'api', mode: 'search', screenshot: 0 }],
  regionCodes: ['310000'],
  monitorKeywords: 'Acme|acme.com, Globex',
  samples: { min: 3, max: 10, targetWidth: 0.4 },
  schedule: { cron: '0 9 * * *', timezone: 'Asia/Shanghai' },
  callbackUrl: 'https://hooks.example.com/monitor',
  digest: true,
  enabled: true,
} satisfies z.input<typeof monitorInputSchema>;

const monitorExample: MonitorView = {
  monitorId: MONITOR_ID,
  name: inputExample.name,
  prompts: [
    { text: 'Which CRM suits a team of ten?', tags: [] },
    { text: 'Best CRM for a bakery?', tags: ['smb'] },
  ],
  platforms: [{ platform: 'chatgpt', channel: 'api', mode: 'search', screenshot: 0 }],
  regionCodes: ['310000'],
  monitorKeywords: inputExample.monitorKeywords,
  samples: inputExample.samples,
  schedule: inputExample.schedule,
  callbackUrl: 'https://hooks.example.com/monitor',
  digest: true,
  enabled: true,
  createdAt: CREATED,
  updatedAt: CREATED,
  nextDueAt: CREATED + 3_600_000,
};

const runExample: RunView = {
  runId: RUN_ID,
  monitorId: MONITOR_ID,
  trigger: 'schedule',
  slot: CREATED + 3_600_000,
  status: 'finished',
  createdAt: CREATED + 3_600_020,
  finishedAt: CREATED + 3_680_000,
  samplesTaken: 16,
  samplesSaved: 4,
  regions: [
    {
      regionCode: '310000',
      taskId: TASK_ID,
      submitted: true,
      taskStatus: 'completed',
      error: null,
      followUps: [
        { round: 1, taskId: FOLLOW_UP_IDS[0], cells: 1, samples: 3, submitted: true, error: null },
        { round: 1, taskId: FOLLOW_UP_IDS[1], cells: 1, samples: 7, submitted: true, error: null },
      ],
      samplesTaken: 16,
      callsSaved: 4,
      cells: [
        {
          prompt: 'Which CRM suits a team of ten?',
          platform: 'chatgpt',
          channel: 'api',
          mode: 'search',
          samplesTaken: 6,
          answered: 6,
          ranOtherMode: 0,
          targetWidth: 0.4,
          width: 0.3903,
          callsSaved: 4,
          stability: 0.62,
          brands: [
            { keyword: 'Acme', mentionRate: { value: 1, lower: 0.6097, upper: 1, n: 6 } },
            { keyword: 'Globex', mentionRate: { value: 0, lower: 0, upper: 0.3903, n: 6 } },
          ],
        },
        {
          prompt: 'Best CRM for a bakery?',
          platform: 'chatgpt',
          channel: 'api',
          mode: 'search',
          samplesTaken: 10,
          answered: 10,
          ranOtherMode: 0,
          targetWidth: 0.4,
          width: 0.5268,
          callsSaved: 0,
          stability: 0.41,
          brands: [
            { keyword: 'Acme', mentionRate: { value: 0.5, lower: 0.2366, upper: 0.7634, n: 10 } },
            { keyword: 'Globex', mentionRate: { value: 0.3, lower: 0.1078, upper: 0.6032, n: 10 } },
          ],
        },
      ],
    },
  ],
};

const monitorIdParam = {
  name: 'monitorId',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
  description: 'Monitor id (UUID); a non-UUID is a 400',
  example: MONITOR_ID,
};

const MONITOR_ID_REASON: Reason = {
  text: 'monitorId is not a UUID',
  example: {
    message: 'invalid request: monitorId: must be a UUID',
    errors: [{ field: 'monitorId', message: 'must be a UUID' }],
  },
};

const NOT_FOUND = "Unknown monitor, or another user's";

/** The pieces every monitor operation is built of: its answer, tags and errors. */
export function monitorOperations(set: SchemaSet) {
  const errors = errorResponses.bind(null, set);
  const answer = (description: string, schema: z.ZodType, value: unknown, message?: string) => ({
    '200': {
      description,
      ...set.content(envelopeOf(schema), example(description, envelope(value, message))),
    },
  });
  const op = (summary: string, extra: Json) => ({
    summary,
    tags: ['monitors'],
    security: SECURITY,
    ...extra,
  });
  const byId = [monitorIdParam];
  const idErrors = (reasons: Partial<Record<'400', Reason>> = {}) =>
    errors(['400', '404', ...PROTECTED], {
      '400': MONITOR_ID_REASON,
      ...reasons,
      '404': NOT_FOUND,
    });
  return { errors, answer, op, byId, idErrors };
}

export function monitorPaths(set: SchemaSet): Json {
  const parts = monitorOperations(set);
  const { errors, answer, op, byId } = parts;
  const idErrors = parts.idErrors();
  const body = {
    required: true,
    ...set.content(monitorInputSchema, example('A daily monitor', inputExample), 'input'),
  };

  return {
    [openApiPath(PATHS.MONITORS)]: {
      post: op('Create a monitor: a prompt set run on a schedule', {
        description:
          'Every problem is reported in one 400: the fields as the batch submission checks them (platform, channel, mode), the cron expression and time zone, samples, and the callback address (no internal hosts).',
        requestBody: body,
        responses: {
          ...answer('Monitor created', monitorViewSchema, monitorExample, 'monitor created'),
          ...errors([...JSON_BODY, ...PROTECTED]),
        },
      }),
      get: op("List the caller's monitors, newest first", {
        parameters: set.queryParams(pageQuerySchema),
        responses: {
          ...answer('One page of monitors', monitorListSchema, {
            total: 1,
            page: 1,
            size: 10,
            monitors: [monitorExample],
          }),
          ...errors(['400', ...PROTECTED]),
        },
      }),
    },
    [openApiPath(PATHS.MONITOR)]: {
      get: op('One monitor', {
        parameters: byId,
        responses: { ...answer('The monitor', monitorViewSchema, monitorExample), ...idErrors },
      }),
      put: op('Replace a monitor (its next run follows the new schedule)', {
        parameters: byId,
        requestBody: body,
        responses: {
          ...answer('Monitor saved', monitorViewSchema, monitorExample, 'monitor saved'),
          ...errors(['400', '404', '413', '415', ...PROTECTED], { '404': NOT_FOUND }),
        },
      }),
      delete: op('Delete a monitor and its runs (their tasks stay)', {
        parameters: byId,
        responses: {
          ...answer(
            'Monitor deleted',
            monitorViewSchema.pick({ monitorId: true }),
            { monitorId: MONITOR_ID },
            'monitor deleted',
          ),
          ...idErrors,
        },
      }),
    },
    [openApiPath(PATHS.MONITOR_RUN)]: {
      post: op('Run a monitor now, beside its schedule', {
        description:
          'Creates the run and submits one task per region; each is an ordinary task that every task route reads.',
        parameters: byId,
        responses: {
          ...answer(
            'Run started',
            runViewSchema,
            {
              ...runExample,
              trigger: 'manual',
              status: 'running',
              finishedAt: null,
              regions: runExample.regions.map((r) => ({
                ...r,
                taskStatus: null,
                samplesTaken: null,
                callsSaved: null,
                cells: null,
              })),
            },
            'run started',
          ),
          ...idErrors,
        },
      }),
    },
    [openApiPath(PATHS.MONITOR_WATCH)]: {
      post: op('Watch a brand: add it to the monitor’s keyword groups', {
        description:
          'Adds the name to monitorKeywords as a group of its own (the name its one alias), so that the next run measures it like any group: typically a brand of the trends’ `discovered` (docs/insights.md). Idempotent: a name the monitor watches already (an alias with the same key: case, width and punctuation aside) changes nothing and answers 200 with `added` false and the group that watches it. A `PUT` of the monitor with the longer monitorKeywords does the same. Every problem with the body is reported in one 400, before the monitor is looked up.',
        parameters: byId,
        requestBody: {
          required: true,
          ...set.content(
            watchInputSchema,
            example('A discovered brand', { name: 'Initech' }),
            'input',
          ),
        },
        responses: {
          ...answer(
            'Watched (or watched already)',
            watchResultSchema,
            {
              added: true,
              keyword: 'Initech',
              monitor: {
                ...monitorExample,
                monitorKeywords: `${monitorExample.monitorKeywords}, Initech`,
                updatedAt: CREATED + 7_200_000,
              },
            },
            'brand watched',
          ),
          ...errors(['400', '404', '413', '415', ...PROTECTED], {
            '400': {
              text: 'monitorId is not a UUID, or the body breaks a rule (every problem is listed)',
              example: {
                message:
                  'invalid request: name: must not be blank; name: must not contain , ， 、 ; ； or | (they separate keyword entries and aliases)',
                errors: [
                  { field: 'name', message: 'must not be blank' },
                  {
                    field: 'name',
                    message:
                      'must not contain , ， 、 ; ； or | (they separate keyword entries and aliases)',
                  },
                ],
              },
            },
            '404': NOT_FOUND,
          }),
        },
      }),
    },
    [openApiPath(PATHS.MONITOR_RUNS)]: {
      get: op("A monitor's runs, newest slot first, with each finished region's figures", {
        parameters: [...byId, ...set.queryParams(pageQuerySchema)],
        responses: {
          ...answer('One page of runs', runListSchema, {
            total: 1,
            page: 1,
            size: 10,
            runs: [runExample],
          }),
          ...idErrors,
        },
      }),
    },
  };
}
