/**
 * The response shapes of the monitor routes as zod schemas (the OpenAPI
 * document and the contract tests read them), kept beside http.ts so that the
 * batch contract stays as it is. Pure vocabulary: the dashboard may import it.
 */
import { z } from 'zod';
import { CHANNELS, MODES } from '../platforms/definition.js';
import { TASK_STATUSES } from './status.js';

const int = () => z.int();
const timestamp = () => z.int().meta({ description: 'Milliseconds since the epoch' });

export const proportionSchema = z
  .object({
    value: z.number().meta({ description: 'successes / n (0 when n is 0)' }),
    lower: z.number().meta({ description: 'Wilson 95 % lower bound' }),
    upper: z.number().meta({ description: 'Wilson 95 % upper bound' }),
    n: int().meta({ description: 'Answers counted' }),
  })
  .strict()
  .meta({ id: 'Proportion' });

const samplesView = z.union([
  int(),
  z.object({ min: int(), max: int(), targetWidth: z.number() }).strict(),
]);

const scheduleView = z.union([
  z.object({ cron: z.string(), timezone: z.string() }).strict(),
  z.object({ everyMinutes: int() }).strict(),
]);

export const monitorViewSchema = z
  .object({
    monitorId: z.uuid(),
    name: z.string(),
    prompts: z.array(z.object({ text: z.string(), tags: z.array(z.string()) }).strict()),
    platforms: z.array(
      z
        .object({
          platform: z.string(),
          channel: z.enum(CHANNELS),
          mode: z.enum(MODES),
          screenshot: int(),
        })
        .strict(),
    ),
    regionCodes: z.array(z.string()),
    monitorKeywords: z.string(),
    samples: samplesView,
    schedule: scheduleView,
    callbackUrl: z.string().nullable(),
    digest: z.boolean().meta({ description: 'A monitor.digest delivery to callbackUrl daily' }),
    enabled: z.boolean(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    nextDueAt: timestamp()
      .nullable()
      .meta({ description: 'The next scheduled run (ms); null while disabled' }),
  })
  .strict()
  .meta({ id: 'Monitor' });

export const monitorListSchema = z
  .object({ total: int(), page: int(), size: int(), monitors: z.array(monitorViewSchema) })
  .strict();

const cellViewSchema = z
  .object({
    prompt: z.string(),
    platform: z.string(),
    channel: z.string(),
    mode: z.string(),
    samplesTaken: int(),
    answered: int().meta({
      description: "Samples answered in the cell's mode: the n of every rate",
    }),
    ranOtherMode: int().meta({
      description:
        'Samples answered in another mode than asked (a silent fallback, their effectiveMode): left out of the figures',
    }),
    targetWidth: z.number().nullable().meta({
      description:
        'The width adaptive sampling aimed at (samples.targetWidth); null for a fixed count',
    }),
    width: z.number().nullable().meta({
      description:
        "Width of the monitored brand's (first keyword entry) mention-rate interval the cell reached",
    }),
    callsSaved: int().meta({ description: 'Platform calls saved against asking samples.max' }),
    stability: z.number().nullable().meta({
      description: 'Mean pairwise Jaccard similarity of the answers’ word sets; null under two',
    }),
    brands: z.array(z.object({ keyword: z.string(), mentionRate: proportionSchema }).strict()),
  })
  .strict();

export const runViewSchema = z
  .object({
    runId: z.uuid(),
    monitorId: z.uuid(),
    trigger: z.enum(['schedule', 'manual']),
    slot: timestamp().meta({ description: 'The scheduled slot, or the time of a run now' }),
    status: z.enum(['starting', 'running', 'finished', 'failed']),
    createdAt: timestamp(),
    finishedAt: timestamp().nullable(),
    samplesTaken: int().nullable().meta({
      description: 'Platform calls the run made over its settled regions; null before one settles',
    }),
    samplesSaved: int().nullable().meta({
      description:
        'Platform calls adaptive sampling saved against asking every cell samples.max; null before a region settles',
    }),
    regions: z.array(
      z
        .object({
          regionCode: z.string().nullable(),
          taskId: z.uuid().meta({ description: 'An ordinary task: every task route reads it' }),
          submitted: z.boolean(),
          taskStatus: z.enum(TASK_STATUSES).nullable(),
          error: z.string().nullable().meta({ description: 'Why the submission was refused' }),
          followUps: z
            .array(
              z
                .object({
                  round: int().meta({ description: '1 for the first follow-up round' }),
                  taskId: z
                    .uuid()
                    .meta({ description: 'An ordinary task: every task route reads it' }),
                  cells: int().meta({ description: 'Cells the task asks again' }),
                  samples: int().meta({ description: 'Samples per cell in this task' }),
                  submitted: z.boolean(),
                  error: z.string().nullable(),
                })
                .strict(),
            )
            .meta({
              description:
                'Adaptive sampling: further tasks asking only the cells whose interval is still wider than targetWidth',
            }),
          samplesTaken: int().nullable(),
          callsSaved: int().nullable(),
          cells: z.array(cellViewSchema).nullable().meta({
            description: 'Per prompt × platform, once the task is final; null before',
          }),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ id: 'MonitorRun' });

export const runListSchema = z
  .object({ total: int(), page: int(), size: int(), runs: z.array(runViewSchema) })
  .strict();

export type MonitorView = z.output<typeof monitorViewSchema>;
export type RunView = z.output<typeof runViewSchema>;

export const watchResultSchema = z
  .object({
    added: z.boolean().meta({
      description:
        'true: the name is now a keyword group of its own; false: the monitor watched it already (an alias with the same key), and nothing changed',
    }),
    keyword: z.string().meta({ description: 'The group that watches it' }),
    monitor: monitorViewSchema,
  })
  .strict()
  .meta({ id: 'MonitorWatch' });

export type WatchResult = z.output<typeof watchResultSchema>;
