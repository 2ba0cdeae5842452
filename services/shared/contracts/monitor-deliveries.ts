/**
 * The bodies of a monitor's deliveries (docs/monitors.md, "Alerts and the
 * daily digest"), as zod schemas: the OpenAPI document shows them as webhooks
 * and the tests hold the bodies sent to them. Pure vocabulary.
 */
import { z } from 'zod';
import { TASK_STATUSES } from './status.js';

const timestamp = () => z.int().meta({ description: 'Milliseconds since the epoch' });

const changeSchema = z.record(z.string(), z.unknown()).meta({
  description:
    'A change as GET …/monitors/{monitorId}/changes serves it: {id, monitorId, runId, previousRunId, slot, detectedAt, kind, scope, keyword, domain, before, after, detail}',
});

export const monitorChangesPayloadSchema = z
  .object({
    monitorId: z.uuid(),
    runId: z.uuid().meta({ description: 'The run that finished with these changes' }),
    changes: z.array(changeSchema).min(1),
  })
  .strict()
  .meta({ id: 'MonitorChangesPayload' });

export const monitorDigestPayloadSchema = z
  .object({
    monitorId: z.uuid(),
    name: z.string(),
    day: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .meta({ description: 'The local date of the digest, in the schedule’s time zone' }),
    timezone: z.string().meta({ description: 'The schedule’s time zone; UTC for everyMinutes' }),
    from: timestamp().meta({ description: 'Start of the window: to − 24 h' }),
    to: timestamp().meta({ description: 'The digest’s time: 09:00 local on day' }),
    runs: z.array(
      z
        .object({
          runId: z.uuid(),
          trigger: z.enum(['schedule', 'manual']),
          slot: timestamp(),
          status: z.enum(['starting', 'running', 'finished', 'failed']),
          finishedAt: timestamp().nullable(),
          regions: z.array(
            z
              .object({
                regionCode: z.string().nullable(),
                taskId: z.uuid(),
                taskStatus: z.enum(TASK_STATUSES).nullable(),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
    changes: z.array(changeSchema).meta({ description: 'Detected in the window, oldest first' }),
    changesTruncated: z.boolean().meta({ description: 'More than the 1,000 changes shown' }),
  })
  .strict()
  .meta({ id: 'MonitorDigestPayload' });

export type MonitorDigestPayload = z.output<typeof monitorDigestPayloadSchema>;
