/**
 * A monitor's deliveries in the OpenAPI document, as webhooks: the
 * `monitor.changes` alert and the `monitor.digest`, signed like the
 * completion callback and named by the `X-Aimon-Event` header
 * (docs/monitors.md, "Alerts and the daily digest").
 */
import {
  monitorChangesPayloadSchema,
  monitorDigestPayloadSchema,
  type MonitorDigestPayload,
} from '../shared/contracts/monitor-deliveries.js';
import { headerParam, signedHeaderParams } from './openapi-callbacks.js';
import { SECRET_EXAMPLE, TASK_ID } from './openapi-examples.js';
import { MONITOR_ID, RUN_ID } from './openapi-monitors.js';
import { example, type Json, type SchemaSet } from './openapi-parts.js';
/** 2026-11-27 09:00 in Asia/Shanghai. */
const NINE = 1_795_741_200_000;
const DAY_MS = 86_400_000;

const changesExample = {
  monitorId: MONITOR_ID,
  runId: RUN_ID,
  changes: [
    {
      id: '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f',
      monitorId: MONITOR_ID,
      runId: RUN_ID,
      previousRunId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      slot: NINE - DAY_MS,
      detectedAt: NINE - DAY_MS + 600_000,
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
      before: 0.8,
      after: 0.1,
      detail: 'mention rate 0.80 [0.49, 0.94] → 0.10 [0.02, 0.40]',
    },
  ],
};

const digestExample: MonitorDigestPayload = {
  monitorId: MONITOR_ID,
  name: 'CRM shortlist, daily',
  day: '2026-11-27',
  timezone: 'Asia/Shanghai',
  from: NINE - DAY_MS,
  to: NINE,
  runs: [
    {
      runId: RUN_ID,
      trigger: 'schedule',
      slot: NINE - DAY_MS,
      status: 'finished',
      finishedAt: NINE - DAY_MS + 600_000,
      regions: [{ regionCode: '310000', taskId: TASK_ID, taskStatus: 'completed' }],
    },
  ],
  changes: changesExample.changes,
  changesTruncated: false,
};

const SIGNING =
  'Signed, sent and retried like the completion callback (Standard Webhooks, the user’s secret; retried after 15 s, 1 min, 5 min, 15 min, 1 h, 4 h and 12 h), to the monitor’s callbackUrl. ' +
  `The example headers are the real signature of the example body (serialised without spaces) under the secret ${SECRET_EXAMPLE}.`;

function webhook(
  set: SchemaSet,
  o: {
    kind: string;
    subjectId: string;
    idDescription: string;
    summary: string;
    description: string;
    schema: typeof monitorChangesPayloadSchema | typeof monitorDigestPayloadSchema;
    body: unknown;
    sentAt: number;
  },
): Json {
  return {
    post: {
      summary: o.summary,
      description: `${o.description} ${SIGNING}`,
      tags: ['monitors'],
      parameters: [
        ...signedHeaderParams(o, o.idDescription, o.body, o.sentAt),
        headerParam('x-aimon-event', 'The kind of delivery', { const: o.kind }, o.kind),
      ],
      requestBody: { required: true, ...set.content(o.schema, example(o.summary, o.body)) },
      responses: {
        '2XX': { description: 'Received: the delivery succeeded; the answer body is ignored' },
        default: { description: 'Any other answer, or none in time: the attempt is retried' },
      },
    },
  };
}

export function monitorWebhooks(set: SchemaSet): Json {
  return {
    monitorChanges: webhook(set, {
      kind: 'monitor.changes',
      subjectId: RUN_ID,
      idDescription: '`msg_monitor.changes_<runId>`, the same on every attempt',
      summary: 'Alert: a monitor run finished with changes larger than the noise',
      description: 'Sent once per run that detected changes; none when it detected none.',
      schema: monitorChangesPayloadSchema,
      body: changesExample,
      sentAt: NINE - DAY_MS + 600_020,
    }),
    monitorDigest: webhook(set, {
      kind: 'monitor.digest',
      subjectId: `${MONITOR_ID}@${digestExample.day}`,
      idDescription: '`msg_monitor.digest_<monitorId>@<day>`, the same on every attempt',
      summary: 'Daily digest: the runs and changes of the past 24 h',
      description:
        'Sent once a day at 09:00 in the schedule’s time zone (UTC for everyMinutes) for an enabled monitor with digest: true and a callbackUrl; after downtime, once, for the latest day.',
      schema: monitorDigestPayloadSchema,
      body: digestExample,
      sentAt: NINE + 1_000,
    }),
  };
}
