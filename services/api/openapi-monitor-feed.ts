/**
 * A monitor's trends and change feed in the OpenAPI document
 * (services/monitors/feed.mixin.ts, docs/monitors.md "Trends" and "Changes").
 */
import {
  changesSchema,
  DEFINITIONS_VERSION,
  trendsSchema,
  type Change,
  type Trends,
} from '../shared/contracts/monitor-trends.js';
import { changesQuerySchema, trendsQuerySchema } from '../shared/requests/monitor-queries.js';
import { CREATED, MONITOR_ID, monitorOperations, RUN_ID } from './openapi-monitors.js';
import type { Json, SchemaSet } from './openapi-parts.js';
import type { Reason } from './openapi-errors.js';
import { visibilityExample } from './openapi-examples.js';
import { openApiPath, PATHS } from '../shared/contracts/http-paths.js';

const SLOT = CREATED + 3_600_000;
const PREVIOUS_RUN_ID = '7c1e2d3f-4a5b-4c6d-8e7f-a0b1c2d3e4f5';

const trendsExample: Trends = {
  definitionsVersion: DEFINITIONS_VERSION,
  groupBy: 'platform',
  from: CREATED,
  to: null,
  series: [
    {
      group: 'chatgpt',
      keyword: 'Acme',
      points: [
        {
          runId: RUN_ID,
          slot: SLOT,
          finishedAt: SLOT + 80_000,
          mentionRate: { value: 0.6667, lower: 0.3542, upper: 0.8794, n: 9 },
          position: { mean: 1.5, sd: 0.5477, n: 6 },
          shareOfVoice: 0.625,
          citationShare: 0.3333,
          topDomains: [
            { domain: 'acme.com', count: 4 },
            { domain: 'reviewhub.example', count: 3 },
          ],
          stability: 0.71,
          funnel: {
            n: 9,
            inReasoning: 7,
            inReferences: 5,
            inCitations: 3,
            inAnswer: 6,
            consideredButDropped: { value: 0.1429, lower: 0.0257, upper: 0.5131, n: 7 },
          },
          models: ['gpt-4o-2024-08-06'],
          modelChanged: false,
          samples: { cells: 3, asked: 9, meanPerCell: 3 },
        },
      ],
    },
  ],
  discovered: [
    {
      group: 'chatgpt',
      name: 'Initech',
      key: 'initech',
      watched: false,
      answers: 4,
      points: [
        {
          runId: PREVIOUS_RUN_ID,
          slot: SLOT - 3_600_000,
          finishedAt: SLOT - 3_520_000,
          share: { value: 0, lower: 0, upper: 0.2991, n: 9 },
          position: null,
        },
        {
          runId: RUN_ID,
          slot: SLOT,
          finishedAt: SLOT + 80_000,
          share: { value: 0.4444, lower: 0.1888, upper: 0.7333, n: 9 },
          position: { mean: 2.25, sd: 0.5, n: 4 },
        },
      ],
    },
  ],
  insights: {
    runId: RUN_ID,
    slot: SLOT,
    discovered: visibilityExample.discovered,
    opportunities: visibilityExample.opportunities,
  },
  channelGap: [
    {
      prompt: 0,
      platform: 'chatgpt',
      keyword: 'Acme',
      points: [
        {
          runId: RUN_ID,
          slot: SLOT,
          api: { value: 1, lower: 0.4385, upper: 1, n: 3 },
          web: { value: 0.3333, lower: 0.0615, upper: 0.7923, n: 3 },
          gap: { value: 0.6667, lower: -0.0586, upper: 0.9385 },
        },
      ],
    },
  ],
};

const changeExample: Change = {
  id: '3f9a0c1d2e4b5a6978c0d1e2f3a4b5c6',
  monitorId: MONITOR_ID,
  runId: RUN_ID,
  previousRunId: PREVIOUS_RUN_ID,
  slot: SLOT,
  detectedAt: SLOT + 80_000,
  kind: 'brand_lost',
  scope: {
    level: 'cell',
    regionCode: '310000',
    platform: 'chatgpt',
    channel: 'api',
    mode: 'search',
    prompt: 0,
  },
  keyword: 'Acme',
  domain: null,
  before: 1,
  after: 0,
  detail: 'named in 0/5 answers, was 5/5 (the Wilson 95 % intervals do not overlap)',
};

const QUERY_REASON: Reason = {
  text: 'monitorId is not a UUID, or a query parameter is malformed (every problem is listed)',
  example: {
    message: 'invalid request: from: …; groupBy: …',
    errors: [
      {
        field: 'from',
        message:
          'from must be an ISO 8601 time (2026-03-01 or 2026-03-01T09:00:00Z) or milliseconds since the epoch',
      },
      { field: 'groupBy', message: 'groupBy must be one of platform, region, channel, tag, mode' },
    ],
  },
};

export function monitorFeedPaths(set: SchemaSet): Json {
  const { answer, op, byId, idErrors } = monitorOperations(set);
  const errors = idErrors({ '400': QUERY_REASON });
  return {
    [openApiPath(PATHS.MONITOR_TRENDS)]: {
      get: op(
        "A monitor's trends: per finished run, group and keyword, every figure with its interval",
        {
          description:
            'Computed from the finished runs’ snapshots whose slot lies in [from, to]. The figures are defined in docs/monitors.md; `definitionsVersion` names the version. `discovered` follows, per group, the brands the answers recommend that no group watches, with their share of answers per run and its Wilson interval (docs/insights.md); `insights` are the newest run’s discovered brands and citation opportunities over all its sub tasks. `channelGap` lists, for each prompt asked on one platform over both channels, the API minus web mention rate with Newcombe’s 95 % interval.',
          parameters: [...byId, ...set.queryParams(trendsQuerySchema)],
          responses: { ...answer('The trends', trendsSchema, trendsExample), ...errors },
        },
      ),
    },
    [openApiPath(PATHS.MONITOR_CHANGES)]: {
      get: op("A monitor's changes between consecutive runs, newest first", {
        description:
          'Stored when a run finishes: per cell and per platform, a keyword group gained or lost (intervals apart or a two-proportion test at 95 %), a position moved by 2 or more, a cited domain added or removed, a competitor appeared; per platform a CUSUM drift. The rules are in docs/monitors.md.',
        parameters: [...byId, ...set.queryParams(changesQuerySchema)],
        responses: {
          ...answer('The changes', changesSchema, {
            definitionsVersion: DEFINITIONS_VERSION,
            changes: [changeExample],
          }),
          ...errors,
        },
      }),
    },
  };
}
