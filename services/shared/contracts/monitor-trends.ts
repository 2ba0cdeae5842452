/**
 * The shapes of a monitor's trends and change feed (docs/monitors.md) as zod
 * schemas: the OpenAPI document and the tests read them, the monitors service
 * builds to their types. Pure vocabulary: the dashboard may import it.
 */
import { z } from 'zod';
import { citationOpportunitySchema, discoveredBrandSchema } from './http.js';

const int = () => z.int();
const timestamp = () => z.int().meta({ description: 'Milliseconds since the epoch' });

export const TREND_GROUPS = ['platform', 'region', 'channel', 'tag', 'mode'] as const;
export type TrendGroupBy = (typeof TREND_GROUPS)[number];

export const CHANGE_KINDS = [
  'brand_gained',
  'brand_lost',
  'position_moved',
  'domain_added',
  'domain_removed',
  'competitor_appeared',
  'drift',
  'discovered_new',
  'discovered_rose',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const rateSchema = z
  .object({
    value: z.number().nullable().meta({ description: 'successes / n; null when n is 0' }),
    lower: z.number().nullable().meta({ description: 'Wilson 95 % lower bound' }),
    upper: z.number().nullable().meta({ description: 'Wilson 95 % upper bound' }),
    n: int().meta({ description: 'The denominator' }),
  })
  .strict()
  .meta({ id: 'Rate' });

const differenceSchema = z
  .object({
    value: z.number().nullable(),
    lower: z.number().nullable().meta({ description: "Newcombe's hybrid score 95 % bound" }),
    upper: z.number().nullable(),
  })
  .strict();

const placeSchema = z
  .object({ mean: z.number(), sd: z.number(), n: int() })
  .strict()
  .nullable()
  .meta({
    description: 'The place among the brands the answers recommend; null: never placed',
  });

const pointSchema = z
  .object({
    runId: z.uuid(),
    slot: timestamp(),
    finishedAt: timestamp().nullable(),
    mentionRate: rateSchema,
    position: placeSchema,
    shareOfVoice: z.number().nullable(),
    citationShare: z.number().nullable(),
    topDomains: z.array(z.object({ domain: z.string(), count: int() }).strict()),
    stability: z.number().nullable(),
    funnel: z
      .object({
        n: int(),
        inReasoning: int(),
        inReferences: int(),
        inCitations: int(),
        inAnswer: int(),
        consideredButDropped: rateSchema,
      })
      .strict(),
    models: z.array(z.string()),
    modelChanged: z.boolean(),
    samples: z.object({ cells: int(), asked: int(), meanPerCell: z.number() }).strict(),
  })
  .strict();

const discoveredPointSchema = z
  .object({
    runId: z.uuid(),
    slot: timestamp(),
    finishedAt: timestamp().nullable(),
    share: rateSchema.meta({
      description:
        "Answers naming the brand / the group's answers in the run (n), Wilson 95 %: as a watched group's mentionRate",
    }),
    position: placeSchema,
  })
  .strict();

export const discoveredSeriesSchema = z
  .object({
    group: z.string(),
    name: z.string().meta({ description: 'As first written (Markdown removed)' }),
    key: z.string().meta({
      description:
        'The merging key: NFKC, lower case, letters and digits only (docs/insights.md); names with one key are one brand',
    }),
    watched: z.boolean().meta({
      description:
        'The monitor now watches it (an alias of one of its monitorKeywords groups has its key): from the next run it is a series of its own, and it has no point in runs where it was watched',
    }),
    answers: int().meta({ description: 'Answers naming it over the points' }),
    points: z.array(discoveredPointSchema).meta({
      description:
        'One per run in which the group answered and the brand was not watched, oldest first; a run whose answers do not name it is a point at 0',
    }),
  })
  .strict()
  .meta({ id: 'MonitorDiscoveredSeries' });

export const trendsSchema = z
  .object({
    definitionsVersion: int(),
    groupBy: z.enum(TREND_GROUPS),
    from: timestamp().nullable(),
    to: timestamp().nullable(),
    series: z.array(
      z.object({ group: z.string(), keyword: z.string(), points: z.array(pointSchema) }).strict(),
    ),
    discovered: z.array(discoveredSeriesSchema).meta({
      description:
        'Per group, the brands the answers recommend that no group watches (docs/insights.md), most named over the window first, at most 20 per group',
    }),
    insights: z
      .object({
        runId: z.uuid(),
        slot: timestamp(),
        discovered: z.array(discoveredBrandSchema).meta({
          description:
            "The run's discovered brands, merged over all its sub tasks (every region and round) as a task's visibility.discovered",
        }),
        opportunities: z.array(citationOpportunitySchema).meta({
          description: "The run's citation opportunities, as a task's visibility.opportunities",
        }),
      })
      .strict()
      .nullable()
      .meta({
        description:
          'The insights of the newest finished run in the window (docs/insights.md); null: none has them',
      }),
    channelGap: z.array(
      z
        .object({
          prompt: int().meta({ description: "The prompt's index in the monitor" }),
          platform: z.string(),
          keyword: z.string(),
          points: z.array(
            z
              .object({
                runId: z.uuid(),
                slot: timestamp(),
                api: rateSchema,
                web: rateSchema,
                gap: differenceSchema.meta({ description: 'api − web' }),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ id: 'MonitorTrends' });

export const changeSchema = z
  .object({
    id: z.string(),
    monitorId: z.uuid(),
    runId: z.uuid(),
    previousRunId: z.uuid().nullable(),
    slot: timestamp(),
    detectedAt: timestamp(),
    kind: z.enum(CHANGE_KINDS),
    scope: z
      .object({
        level: z.enum(['cell', 'group', 'run']).meta({
          description:
            'cell: one region × prompt × platform, channel, mode; group: a platform’s cells pooled; run: every cell of the run (the discovered brands)',
        }),
        regionCode: z.string().nullable(),
        platform: z.string().nullable(),
        channel: z.string().nullable(),
        mode: z.string().nullable(),
        prompt: int().nullable(),
      })
      .strict(),
    keyword: z.string().nullable().meta({
      description:
        'The keyword group; for discovered_new and discovered_rose the discovered brand’s name',
    }),
    domain: z.string().nullable(),
    before: z.number().nullable(),
    after: z.number().nullable(),
    detail: z.string(),
  })
  .strict()
  .meta({ id: 'MonitorChange' });

export const changesSchema = z
  .object({ definitionsVersion: int(), changes: z.array(changeSchema) })
  .strict()
  .meta({ id: 'MonitorChanges' });

export type Rate = z.output<typeof rateSchema>;
export type Trends = z.output<typeof trendsSchema>;
export type TrendSeries = Trends['series'][number];
export type TrendPoint = TrendSeries['points'][number];
export type GapSeries = Trends['channelGap'][number];
export type DiscoveredSeries = Trends['discovered'][number];
export type RunInsights = NonNullable<Trends['insights']>;
export type DiscoveredPoint = DiscoveredSeries['points'][number];
export type Change = z.output<typeof changeSchema>;
export type ChangeScope = Change['scope'];

/** The version of the figure definitions in docs/monitors.md; a changed definition raises it. */
export const DEFINITIONS_VERSION = 3;
