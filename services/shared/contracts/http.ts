/**
 * The response shapes of every endpoint as zod schemas. They generate the
 * OpenAPI document and the contract tests check real answers against them, so
 * the published contract and the behaviour cannot drift apart. The types at
 * the end are what the routes, the dashboard and the CLI read, derived from
 * the same schemas. The dashboard imports this module, so it imports only
 * pure vocabulary (no Node modules, no catalogue).
 */
import { z } from 'zod';
import { DELIVERY_STATUSES } from '../webhooks/schedule.js';
import { CHANNELS, MODES, SERVES } from '../platforms/definition.js';
import { MISSING } from '../availability.js';
import { SUBTASK_STATUSES, TASK_STATUSES } from './status.js';
import { WEB_OUTCOMES, type WebOutcome } from './web-outcomes.js';

const int = () => z.int();
const timestamp = () => z.int().meta({ description: 'Milliseconds since the epoch (Long)' });
const taskStatus = z.enum(TASK_STATUSES);
const subTaskStatus = z.enum(SUBTASK_STATUSES);
const channel = () =>
  z.enum(CHANNELS).nullable().meta({
    description:
      'api (vendor API) or web (consumer site); null: stored before channels were recorded',
  });

export const referenceSchema = z
  .object({ index: int(), title: z.string(), url: z.string(), site: z.string(), icon: z.string() })
  .meta({ id: 'Reference' });

export const mentionSchema = z
  .object({
    keyword: z.string().meta({ description: 'The group, named by its first alias' }),
    count: int().meta({
      description: 'Mentions in answerContent (text only, not Markdown syntax or link URLs)',
    }),
    firstIndex: int()
      .nullable()
      .meta({ description: 'Character offset of the first mention in answerContent' }),
    position: int().nullable().meta({
      description:
        "The brand's place among ALL the brands or products the answer recommends, from the answer's own lists (1 = recommended first); null when absent",
    }),
    groupRank: int().nullable().meta({
      description:
        'Among the monitorKeywords groups only: 1 = the first group named in the answer; null when absent',
    }),
    inReasoning: z.boolean(),
    inReferences: z
      .boolean()
      .meta({ description: "A reference's title, url or site names the group" }),
    inCitations: z
      .boolean()
      .meta({ description: "A cited source's title, url or site names the group" }),
  })
  .strict()
  .meta({ id: 'Mention' });

export const sentimentSchema = z
  .object({
    keyword: z.string(),
    sentiment: z.enum(['positive', 'neutral', 'negative']),
    reason: z.string(),
  })
  .strict()
  .meta({ id: 'SentimentVerdict' });

const ratio = () => z.number().min(0).max(1);
const visibilityChannel = () =>
  z.enum(CHANNELS).optional().meta({
    description: 'Present only when the task holds the platform on both channels',
  });
const visibilityMode = () =>
  z.enum(MODES).optional().meta({
    description:
      "The mode that ran (a completed sub task's effectiveMode: a silent fallback counts where it ran; the requested mode for the others). Present only when the task holds the platform's channel in more than one mode",
  });

const sourcePageSchema = z
  .object({ url: z.string(), title: z.string() })
  .strict()
  .meta({ id: 'SourcePage' });

export const discoveredBrandSchema = z
  .object({
    name: z.string().meta({
      description:
        'As most often written, Markdown removed; names merge by case, full and half width, punctuation and Markdown',
    }),
    answers: int().meta({ description: 'Completed answers that name it' }),
    share: ratio().meta({ description: 'Those answers / all completed answers' }),
    averagePosition: z.number().meta({
      description:
        'Mean place among all the brands or products each of those answers recommends (1 = first)',
    }),
    bestPosition: int(),
    places: z
      .array(
        z
          .object({
            platform: z.string(),
            channel: visibilityChannel(),
            mode: visibilityMode(),
            answers: int().meta({ description: "The place's answers that name it" }),
            share: ratio().meta({ description: "Those answers / the place's answers" }),
          })
          .strict(),
      )
      .meta({ description: 'Where it is recommended, as in the rows' }),
    example: z
      .object({ subTaskId: z.string(), platform: z.string(), prompt: z.string() })
      .strict()
      .meta({ description: 'One sub task naming it: the one placing it best' }),
  })
  .strict()
  .meta({
    id: 'DiscoveredBrand',
    description:
      'A brand or product the answers recommend that no monitorKeywords group watches: an entry of a recommendation list or table, a numbered heading, or a bold or linked name; considerations, steps and headings (Pricing, Step 1, 总结) are not brands',
  });

export const citationOpportunitySchema = z
  .object({
    domain: z.string(),
    tag: z.enum(['owned', 'competitor', 'other']),
    keyword: z.string().optional(),
    answers: int().meta({
      description:
        'Answers that name a competitor (a group other than the first, or a discovered brand) and not the first group, and cite the domain: the rank',
    }),
    userAnswers: int().meta({
      description: 'Answers naming the first group that cite the domain, for contrast',
    }),
    retrievedAnswers: int().meta({
      description:
        'Answers naming a competitor and not the first group that retrieved a page of the domain without citing it',
    }),
    competitors: z
      .array(z.string())
      .meta({ description: 'The competitors those answers name, most named first (at most 10)' }),
    pages: z
      .array(sourcePageSchema)
      .meta({ description: 'The cited pages, most cited first (at most 10)' }),
    retrieved: z.array(sourcePageSchema).meta({
      description:
        'Pages of the domain retrieved and not cited in those answers, where the platform separates them (at most 10)',
    }),
    prompts: z
      .array(z.string())
      .meta({ description: 'The prompts of those answers, most frequent first (at most 10)' }),
    places: z
      .array(
        z
          .object({ platform: z.string(), channel: visibilityChannel(), mode: visibilityMode() })
          .strict(),
      )
      .meta({ description: 'Where those answers come from, as in the rows' }),
  })
  .strict()
  .meta({
    id: 'CitationOpportunity',
    description:
      "A domain cited where competitors are named and the team's own brand (the first group) is not: where to act",
  });

export const visibilitySchema = z
  .object({
    keywords: z.array(z.string()).meta({ description: 'The groups, in monitorKeywords order' }),
    groups: z
      .array(
        z
          .object({
            keyword: z.string().meta({ description: 'The naming alias (the first)' }),
            aliases: z.array(z.string()).meta({ description: 'Every alias, the naming one first' }),
            domains: z
              .array(z.string())
              .meta({ description: "The aliases that are domain names: the group's own sites" }),
          })
          .strict(),
      )
      .meta({
        description:
          'The groups in the same order, with their aliases: a mention of any alias counts for the group',
      }),
    rows: z.array(
      z
        .object({
          keyword: z.string(),
          platform: z.string(),
          channel: visibilityChannel(),
          mode: visibilityMode(),
          answers: int().meta({ description: 'Completed sub tasks counted' }),
          mentionRate: ratio(),
          averagePosition: z.number().nullable().meta({
            description: 'Mean position over the answers that mention the group (1 = best)',
          }),
          bestPosition: int().nullable(),
          top1Share: ratio().meta({
            description: 'Share of answers that recommend the group first (position 1)',
          }),
          top3Share: ratio().meta({
            description: 'Share of answers that recommend the group among the first three',
          }),
          averageGroupRank: z.number().nullable().meta({
            description: 'Mean groupRank over the answers that mention the group',
          }),
          bestGroupRank: int().nullable(),
          shareOfVoice: ratio().meta({
            description: "This group's mentions / all groups' mentions on the platform",
          }),
          citationShare: ratio().meta({
            description: 'Share of answers where a cited source names the group',
          }),
        })
        .strict(),
    ),
    domains: z.array(
      z
        .object({
          platform: z.string(),
          channel: visibilityChannel(),
          mode: visibilityMode(),
          top: z.array(
            z
              .object({
                domain: z.string(),
                count: int(),
                tag: z.enum(['owned', 'competitor', 'other']).meta({
                  description:
                    "owned: a domain the first group declares; competitor: another group's; other",
                }),
                keyword: z.string().optional(),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
    discovered: z.array(discoveredBrandSchema).meta({
      description:
        'Brands the answers recommend that no group watches, most named first (at most 50)',
    }),
    opportunities: z.array(citationOpportunitySchema).meta({
      description:
        'Cited domains where competitors are named and the first group is not, most such answers first (at most 30)',
    }),
  })
  .strict()
  .meta({ id: 'Visibility' });

export const subTaskSummarySchema = z
  .object({
    subTaskId: z.string(),
    prompt: z.string(),
    platform: z.string(),
    channel: channel(),
    mode: z.enum(MODES),
    status: subTaskStatus,
  })
  .strict()
  .meta({ id: 'SubTaskSummary' });

export const subTaskResultSchema = z
  .object({
    subTaskId: z.string(),
    platform: z.string(),
    channel: channel(),
    mode: z.enum(MODES).meta({ description: 'The requested mode' }),
    effectiveMode: z.enum(MODES).nullable().meta({
      description:
        'The mode that really ran (web: read from the stream the site sent: thinking frames, search results; it differs from `mode` when the site silently fell back); null until answered',
    }),
    formatVersion: z.string().nullable().meta({
      description:
        'Web channel: the stream format (parser version) the driver recognised, e.g. `deepseek-2026`, or `<platform>-dom` when the answer was read from the page; null for the api channel and until answered',
    }),
    answerSource: z.enum(['stream', 'dom']).nullable().meta({
      description:
        "Web channel: which of the answer's two witnesses it was taken from: `stream` (the chat call's stream, the default) or `dom` (the rendered page, when the stream and the page disagreed beyond formatting and the site's page gives the whole answer; the raw evidence notes both texts and the difference); null for the api channel and until answered",
    }),
    modelReported: z.string().nullable().meta({
      description:
        "The model the platform reported for this answer: the API response's `model` (Gemini: `modelVersion`), or on the web channel the model the site's stream names, else the choice the page's model picker shows (its label as the site words it); null when the platform names none (DashScope's native protocol, a consumer page without a model picker) and until answered",
    }),
    prompt: z.string(),
    status: subTaskStatus,
    time: timestamp().nullable().meta({ description: 'Completion time; null until final' }),
    pageScreenshot: z.string().nullable().meta({
      description:
        'Screenshot URL. Screenshot 2 ("screenshot of mentions"): the full page with every mention of the monitorKeywords highlighted',
    }),
    mentionScreenshot: z.string().nullable().meta({
      description:
        'Screenshot 2, page taller than the browser window: a window-sized screenshot centred on the first mention; null otherwise',
    }),
    screenshotNote: z.string().nullable().meta({
      description:
        'Set when screenshot 2 fell back to a plain screenshot (no monitorKeywords, or none mentioned on the page), saying so; null otherwise',
    }),
    answerContent: z.string().nullable().meta({ description: 'Answer in Markdown' }),
    referenceList: z.array(referenceSchema),
    citationList: z.array(referenceSchema).meta({ description: 'Cited subset of referenceList' }),
    reasoningProcess: z.object({ summary: z.string(), content: z.string() }).nullable(),
    recommendedQuestions: z.array(z.string()),
    mediaContent: z.array(
      z.object({
        type: z.enum(['image', 'video', 'audio', 'card']),
        url: z.string(),
        title: z.string().optional(),
        thumbnail: z.string().optional(),
        sourceUrl: z.string().optional(),
      }),
    ),
    errorMessage: z.string().nullable(),
    proxyIp: z.string().nullable(),
    rawEvidence: z.string().nullable().meta({
      description:
        'URL of the raw evidence (web channel: the captured stream as NDJSON; task owner only); null when there is none',
    }),
    mentions: z.array(mentionSchema).meta({
      description:
        'One entry per monitorKeywords group, in order; [] without keywords or before the answer',
    }),
    mentioned: z.boolean().meta({ description: 'Any group mentioned in the answer' }),
    sentiment: z.array(sentimentSchema).nullable().meta({
      description: 'Per mentioned group, from the judge (ANALYSIS_PLATFORM); null without one',
    }),
  })
  .strict()
  .meta({ id: 'SubTaskResult' });

const counters = { totalItems: int(), completedItems: int(), failedItems: int() };
const taskName = () =>
  z.string().nullable().meta({ description: "The submission's name; null: none" });

export const submitDataSchema = z
  .object({
    taskId: z.uuid(),
    totalTask: int(),
    status: z.literal('pending'),
    pollUrl: z.string().meta({ description: 'Path of the status endpoint for this task' }),
    subTaskList: z.array(subTaskSummarySchema),
  })
  .strict();

export const statusDataSchema = z
  .object({
    taskId: z.uuid(),
    name: taskName(),
    status: taskStatus,
    message: z.string().meta({ examples: ['12/50 completed, 3 failed'] }),
    ...counters,
    createdAt: timestamp(),
    completedAt: timestamp().nullable(),
    subTaskList: z.array(subTaskSummarySchema),
  })
  .strict();

export const resultDataSchema = z
  .object({
    taskId: z.uuid(),
    name: taskName(),
    status: taskStatus,
    ...counters,
    subTaskList: z.array(subTaskResultSchema),
    visibility: visibilitySchema,
  })
  .strict();

export const listDataSchema = z
  .object({
    total: int(),
    page: int(),
    size: int(),
    tasks: z.array(
      z
        .object({
          taskId: z.uuid(),
          name: taskName(),
          prompts: z.array(z.string()),
          platforms: z.array(
            z
              .object({
                mode: z.enum(MODES),
                platform: z.string(),
                channel: channel(),
                screenshot: int(),
              })
              .strict(),
          ),
          status: taskStatus,
          ...counters,
          createdAt: timestamp(),
          completedAt: timestamp().nullable(),
        })
        .strict(),
    ),
  })
  .strict();

export const tokenRequestSchema = z
  .object({
    apiKey: z
      .string({
        error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
      })
      .min(1, 'is required')
      .meta({ description: 'An API key an operator created (amk_…)' }),
  })
  .meta({ id: 'TokenRequest' });

export const healthDataSchema = z.object({ status: z.literal('ok'), version: z.string() }).strict();

export const meDataSchema = z
  .object({
    userId: int(),
    name: z.string(),
    role: z.string().meta({ description: 'user, or operator (the operator routes need it)' }),
  })
  .strict()
  .meta({ id: 'Me' });

export const tokenDataSchema = z
  .object({
    accessToken: z.string(),
    tokenType: z.literal('Bearer'),
    expiresIn: int().meta({ description: 'Seconds' }),
  })
  .strict();

/** One (platform, channel) pair's availability, by the rule of services/tasks/availability.ts. */
export const verdictSchema = z
  .object({
    available: z.boolean().nullable().meta({
      description:
        'true: a live crawler node runs it (one serving the region) and, on the web channel of a real site, an account in working order is in the region (any region when none is asked); false: submissions to it are refused with 400; null: cannot be told yet (no crawler node is up, or the accounts service did not answer), and submitted work waits',
    }),
    missing: z.array(z.enum(MISSING)).meta({
      description:
        'What is missing: node (no live crawler node runs it there), account (no usable web account there), region (the platform does not serve mainland China, where every regionCode is)',
    }),
    reason: z
      .string()
      .nullable()
      .meta({
        description:
          'Why it is unavailable or unknown, as the 400 of a submission says it; null when available',
        examples: ['no usable account in region 440100 (usable ones: 310100)'],
      }),
  })
  .strict()
  .meta({ id: 'Availability' });

export const platformsDataSchema = z.array(
  z.object({
    platform: z.string(),
    label: z.string(),
    vendor: z.string(),
    aliases: z.array(z.string()),
    modes: z.array(z.enum(MODES)).meta({ description: 'Modes of the active channel' }),
    channel: z.enum(CHANNELS).meta({
      description: 'The active channel: used when a configuration names none',
    }),
    defaultChannel: z.enum(CHANNELS).meta({
      description: "The platform's own default (the operator may choose another as active)",
    }),
    serves: z.enum(SERVES).meta({
      description:
        'Where it serves: everywhere, or outside-mainland (its API and site refuse mainland China; a submission with a regionCode is refused)',
    }),
    channels: z.partialRecord(z.enum(CHANNELS), z.array(z.enum(MODES))).meta({
      description: 'Every channel the platform has, with its modes; a configuration may name one',
    }),
    available: z.boolean().nullable().meta({
      description:
        'The verdict of the active channel (availability[channel].available): what a configuration without channel gets',
    }),
    availability: z.partialRecord(z.enum(CHANNELS), verdictSchema).meta({
      description:
        'Per channel the platform has: whether a submission to it is accepted now, for the regionCode asked about (absent: any region)',
    }),
  }),
);

export const callbackSettingsDataSchema = z
  .object({
    callbackUrl: z
      .string()
      .nullable()
      .meta({ description: 'Default address for tasks submitted without callbackUrl' }),
    secret: z.string().meta({
      description: 'Standard Webhooks signing secret (whsec_ + base64)',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  })
  .strict()
  .meta({ id: 'CallbackSettings' });

export const callbackAttemptSchema = z
  .object({
    attempt: int().meta({ description: '1 = the first attempt' }),
    at: timestamp().meta({ description: 'When the attempt started' }),
    httpStatus: int().nullable().meta({ description: 'null when no answer arrived' }),
    latencyMs: int().nullable(),
    error: z.string().nullable().meta({ description: 'Why it failed; null on success' }),
    response: z.string().nullable().meta({ description: 'Start of the receiver answer' }),
  })
  .strict()
  .meta({ id: 'CallbackAttempt' });

export const callbackDeliveryDataSchema = z
  .object({
    taskId: z
      .uuid()
      .nullable()
      .meta({ description: 'The task of a task callback; null for deliveries of other kinds' }),
    kind: z.string().meta({
      description:
        'task: a completion callback; monitor.changes: a monitor run’s alert; monitor.digest: a monitor’s daily digest',
      examples: ['task', 'monitor.changes', 'monitor.digest'],
    }),
    subjectId: z.string().meta({
      description:
        'What the delivery is about: the task id, the monitor run id, or <monitorId>@<local date>',
    }),
    status: z.enum(['NONE', ...DELIVERY_STATUSES]).meta({
      description:
        'NONE: no callback (yet); PENDING: waiting for the next attempt; SENDING: attempt in flight; SUCCEEDED; FAILED: every attempt failed',
    }),
    url: z.string().nullable().meta({ description: 'The callback address; null: none applies' }),
    webhookId: z.string().nullable().meta({ description: 'webhook-id header of every attempt' }),
    attemptCount: int(),
    maxAttempts: int().meta({ description: 'The first attempt plus the retries' }),
    nextAttemptAt: timestamp().nullable(),
    createdAt: timestamp().nullable(),
    finishedAt: timestamp().nullable(),
    attempts: z.array(callbackAttemptSchema),
  })
  .strict()
  .meta({ id: 'CallbackDelivery' });

export const proxyPortRecordSchema = z
  .object({
    port: int().meta({ description: 'Proxy port number' }),
    province: z.string(),
    city: z.string().meta({ description: "The province's name for a province-wide port" }),
    regionCode: z.array(z.string().regex(/^\d{6}$/)).meta({
      description: 'Administrative division codes, province first; submit one as regionCode',
      examples: [['310000', '310100']],
    }),
    outIp: z.string().meta({ description: 'Exit address the platforms see' }),
    active: z.boolean().meta({ description: 'Whether the latest health check passed' }),
  })
  .strict()
  .meta({ id: 'ProxyPortRecord' });

export const cityInfoDataSchema = z.array(proxyPortRecordSchema);

export function envelopeOf<T extends z.ZodType>(data: T) {
  return z
    .object({ success: z.literal(true), code: z.literal(200), message: z.string(), data })
    .strict();
}

export const errorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    code: int(),
    message: z.string(),
    data: z.null(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    requestId: z.string().optional(),
  })
  .strict()
  .meta({ id: 'ErrorEnvelope' });

/** Web-channel attempts per outcome (every name present, 0 when none). */
const outcomeCounts = () =>
  z
    .object(
      Object.fromEntries(WEB_OUTCOMES.map((o) => [o, int()])) as Record<
        WebOutcome,
        ReturnType<typeof int>
      >,
    )
    .strict()
    .meta({
      description:
        'Attempts per outcome: answered, login_wall, captcha, rate_limited, drift (the page or stream no longer matches the driver; also any final failure it cannot name), refused, timeout, error (browser, network, server trouble)',
    });

/** One platform × region × account's web-channel collector health (`GET …/operator/collectors`). */
export const collectorHealthSchema = z
  .object({
    platform: z.string(),
    regionCode: z.string().nullable().meta({ description: "The sub tasks' region; null: any" }),
    accountId: z.string().nullable().meta({ description: 'null: attempts without an account' }),
    tried: int().meta({ description: 'Attempts counted since the first one (never reset)' }),
    answered: int(),
    answeredFromPage: int().meta({
      description:
        "Stream drift the driver survived: answers (counted in `answered`) taken from the rendered page because the chat call's stream disagreed with it beyond formatting (`answerSource: dom`); a site's stream changing shows here before any sub task fails",
    }),
    outcomes: outcomeCounts(),
    lastAttemptAt: timestamp(),
    lastSuccessAt: timestamp().nullable().meta({ description: 'null: never answered' }),
    lastFailure: z
      .object({ outcome: z.enum(WEB_OUTCOMES), message: z.string(), at: timestamp() })
      .strict()
      .nullable(),
    recent: z
      .object({
        tried: int(),
        outcomes: outcomeCounts(),
        signals: z
          .array(
            z
              .object({
                outcome: z.enum(WEB_OUTCOMES),
                signal: z.string(),
                count: int(),
                lastAt: timestamp(),
              })
              .strict(),
          )
          .meta({ description: 'The failure messages of the window, most frequent first' }),
      })
      .strict()
      .meta({ description: 'The attempts of the last recentMinutes' }),
    drifting: z.boolean().meta({
      description: 'Every attempt of the recent window failed and at least one was drift',
    }),
  })
  .strict()
  .meta({ id: 'CollectorHealth' });

export const collectorsDataSchema = z
  .object({
    generatedAt: timestamp(),
    recentMinutes: int(),
    collectors: z.array(collectorHealthSchema).meta({ description: 'Drifting ones first' }),
  })
  .strict();

/** A shape as a route may build it: read-only throughout, so catalogue data fits as it is. */
export type Built<T> = T extends readonly (infer E)[]
  ? readonly Built<E>[]
  : T extends object
    ? { readonly [K in keyof T]: Built<T[K]> }
    : T;

export type Reference = z.output<typeof referenceSchema>;
export type Mention = z.output<typeof mentionSchema>;
export type SentimentVerdict = z.output<typeof sentimentSchema>;
export type Visibility = z.output<typeof visibilitySchema>;
export type KeywordGroup = Visibility['groups'][number];
export type SubTaskSummary = z.output<typeof subTaskSummarySchema>;
export type SubTaskResult = z.output<typeof subTaskResultSchema>;
export type Media = SubTaskResult['mediaContent'][number];
export type SubmitData = z.output<typeof submitDataSchema>;
export type StatusData = z.output<typeof statusDataSchema>;
export type ResultData = z.output<typeof resultDataSchema>;
export type ListData = z.output<typeof listDataSchema>;
export type TaskListItem = ListData['tasks'][number];
export type TokenData = z.output<typeof tokenDataSchema>;
export type MeData = z.output<typeof meDataSchema>;
export type PlatformsData = z.output<typeof platformsDataSchema>;
export type PlatformEntry = PlatformsData[number];
export type CallbackSettingsData = z.output<typeof callbackSettingsDataSchema>;
export type CallbackDeliveryData = z.output<typeof callbackDeliveryDataSchema>;
export type ProxyPortRecord = z.output<typeof proxyPortRecordSchema>;
export type ErrorEnvelope = z.output<typeof errorEnvelopeSchema>;
export type CollectorsData = z.output<typeof collectorsDataSchema>;
export type CollectorHealth = z.output<typeof collectorHealthSchema>;
