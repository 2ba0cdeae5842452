/**
 * A monitor as a client writes it (`POST` and `PUT …/monitor/monitors`), pure:
 * the zod schema the OpenAPI document shows, and the check that reports every
 * problem at once. The schedule's cron and time zone are read by the monitors
 * service (croner), which adds its problems to these.
 */
import { z } from 'zod';
import type { FieldProblem } from '../errors.js';
import { zodProblems } from '../validation.js';
import { parseKeywords } from '../brand/keywords.js';
import {
  callbackUrlSchema,
  dedupePlatforms,
  LIMITS,
  pairProblems,
  regionCodeSchema,
  submissionSchema,
  type Checked,
  type PlatformConfig,
} from './submission.js';
import { TIME_ZONES } from './time-zones.js';

export const MONITOR_LIMITS = Object.freeze({
  regions: 20,
  tags: 10,
  tagChars: 50,
  samples: 20,
  cronChars: 100,
  /** A week: the longest gap between runs that still makes a trend. */
  everyMinutes: 7 * 24 * 60,
  /** Sub tasks of one region's run at the most samples: a batch's own ceiling (50 × 50). */
  subTasksPerRun: LIMITS.prompts * LIMITS.platforms,
});

const text = submissionSchema.shape.prompts.element;
const oneLine = (max: number, what: string) =>
  z
    .string({ error: 'must be a string' })
    // \S is exactly what String.prototype.trim keeps, and a pattern reaches the OpenAPI document.
    .regex(/\S/, 'must not be blank')
    .regex(/^[^\p{Cc}]*$/u, `${what} must be one line without control characters`)
    .trim()
    .max(max, `must be at most ${max} characters`);

const promptSchema = z.union(
  [
    text,
    z
      .object({
        text,
        tags: z
          .array(oneLine(MONITOR_LIMITS.tagChars, 'a tag'))
          .max(MONITOR_LIMITS.tags, `must contain at most ${MONITOR_LIMITS.tags} tags`)
          .default([]),
      })
      .strict(),
  ],
  {
    error: `must be a prompt (non-blank text of at most ${LIMITS.promptChars} characters) or {text, tags} with at most ${MONITOR_LIMITS.tags} one-line tags of at most ${MONITOR_LIMITS.tagChars} characters`,
  },
);

const sampleCount = z.int().min(1).max(MONITOR_LIMITS.samples);

export const samplesSchema = z
  .union(
    [
      sampleCount,
      z
        .object({ min: sampleCount, max: sampleCount, targetWidth: z.number().gt(0).lt(1) })
        .strict()
        .refine((s) => s.min <= s.max),
    ],
    {
      error: `must be a whole number from 1 to ${MONITOR_LIMITS.samples}, or {min, max, targetWidth} with 1 <= min <= max <= ${MONITOR_LIMITS.samples} and 0 < targetWidth < 1`,
    },
  )
  .meta({
    description:
      'Asks per cell (prompt × platform) and run: a fixed count, or {min, max, targetWidth}: min asks, then more while the mention rate’s 95 % Wilson interval is wider than targetWidth, up to max',
    examples: [3, { min: 3, max: 10, targetWidth: 0.4 }],
  });

export const scheduleSchema = z
  .union(
    [
      z
        .object({
          cron: z.string().max(MONITOR_LIMITS.cronChars),
          // Checked against the list with a message of its own (scheduleProblems); listed here.
          timezone: z
            .string()
            .max(64)
            .meta({
              description:
                'An IANA time zone, as this service lists them (its ICU: Asia/Calcutta, not Asia/Kolkata); UTC',
              enum: [...TIME_ZONES],
            }),
        })
        .strict(),
      z.object({ everyMinutes: z.int().min(1).max(MONITOR_LIMITS.everyMinutes) }).strict(),
    ],
    {
      error: `must be {cron, timezone} (a 5- or 6-field cron expression and an IANA time zone) or {everyMinutes} (1 to ${MONITOR_LIMITS.everyMinutes})`,
    },
  )
  .meta({
    description:
      'When the monitor runs: a cron expression in an IANA time zone (DST-aware), or every N minutes on slots counted from the Unix epoch',
    examples: [{ cron: '0 9 * * *', timezone: 'Asia/Shanghai' }, { everyMinutes: 60 }],
  });

export const monitorInputSchema = z
  .object({
    name: oneLine(LIMITS.nameChars, 'the name'),
    prompts: z
      .array(promptSchema, { error: 'is required and must be an array of prompts' })
      .min(1, 'must contain at least one prompt')
      .max(LIMITS.prompts, `must contain at most ${LIMITS.prompts} prompts`),
    platforms: submissionSchema.shape.platforms,
    regionCodes: z
      .array(regionCodeSchema, { error: 'must be an array of region codes' })
      .max(MONITOR_LIMITS.regions, `must contain at most ${MONITOR_LIMITS.regions} regions`)
      .refine((codes) => new Set(codes).size === codes.length, 'must not repeat a region')
      .default([])
      .meta({ description: 'Each region is its own run; empty or absent: one run without region' }),
    monitorKeywords: submissionSchema.shape.monitorKeywords
      .unwrap()
      .unwrap()
      .regex(/[^\s,，、;；|]/, 'must name at least one brand'),
    samples: samplesSchema.default(1),
    schedule: scheduleSchema,
    callbackUrl: callbackUrlSchema.nullable().default(null),
    digest: z.boolean({ error: 'must be true or false' }).default(false).meta({
      description:
        'Once a day at 09:00 in the schedule’s time zone (UTC for everyMinutes), a signed monitor.digest delivery to callbackUrl: the runs finished and the changes detected in the past 24 h',
    }),
    enabled: z.boolean({ error: 'must be true or false' }).default(true),
  })
  .strict()
  .meta({ id: 'MonitorInput' });

export type MonitorPrompt = { text: string; tags: string[] };
export type MonitorSamples = z.output<typeof samplesSchema>;
export type MonitorSchedule = z.output<typeof scheduleSchema>;

export interface MonitorInput {
  name: string;
  prompts: MonitorPrompt[];
  platforms: PlatformConfig[];
  regionCodes: string[];
  monitorKeywords: string;
  keywords: string[];
  samples: MonitorSamples;
  schedule: MonitorSchedule;
  callbackUrl: string | null;
  digest: boolean;
  enabled: boolean;
}

/**
 * The catalogue's rules as a submission has them (platform, channel, mode),
 * without availability: a monitor runs for months, and what runs today says
 * little about its later runs, whose failures its figures count.
 */
export function checkMonitorInput(
  body: unknown,
  channelChoices: Readonly<Record<string, string>> = {},
): Checked<MonitorInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  }
  const parsed = monitorInputSchema.safeParse(body);
  const errors: FieldProblem[] = [
    ...(parsed.success ? [] : zodProblems(parsed.error)),
    ...pairProblems(body, channelChoices, undefined),
  ];
  if (!parsed.success || errors.length > 0) return { ok: false, errors };
  const input = parsed.data;
  const platforms = dedupePlatforms(input.platforms, channelChoices);
  const most = typeof input.samples === 'number' ? input.samples : input.samples.max;
  const subTasks = input.prompts.length * platforms.length * most;
  if (subTasks > MONITOR_LIMITS.subTasksPerRun) {
    return {
      ok: false,
      errors: [
        {
          field: 'samples',
          message: `prompts × platforms × samples is ${subTasks}; a region's run holds at most ${MONITOR_LIMITS.subTasksPerRun} sub tasks`,
        },
      ],
    };
  }
  return {
    ok: true,
    value: {
      name: input.name,
      prompts: input.prompts.map((p) => (typeof p === 'string' ? { text: p, tags: [] } : p)),
      platforms,
      regionCodes: input.regionCodes,
      monitorKeywords: input.monitorKeywords,
      keywords: parseKeywords(input.monitorKeywords),
      samples: input.samples,
      schedule: input.schedule,
      callbackUrl: input.callbackUrl,
      digest: input.digest,
      enabled: input.enabled,
    },
  };
}
