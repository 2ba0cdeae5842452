/**
 * Example values of the OpenAPI document: one task of one prompt on two
 * platforms, seen through every read. Mentions and visibility are worked out
 * by the service's own brand code. Each value is typed by the zod schema
 * that describes it, so the compiler checks them, and the OpenAPI examples
 * test validates them against the published document too.
 */
import type { z } from 'zod';
import { keywordGroups } from '../shared/brand/groups.js';
import { answerBrandFields, brandFields } from '../shared/brand/mentions.js';
import { visibilityOf } from '../shared/brand/visibility.js';
import { subTaskIdFor } from '../shared/ids.js';
import { parseKeywords } from '../shared/brand/keywords.js';
import type {
  callbackDeliveryDataSchema,
  callbackSettingsDataSchema,
  cityInfoDataSchema,
  listDataSchema,
  platformsDataSchema,
  resultDataSchema,
  statusDataSchema,
  subTaskResultSchema,
  submitDataSchema,
  visibilitySchema,
} from '../shared/contracts/http.js';
import { PATHS, pathTo } from '../shared/contracts/http-paths.js';

type Out<T extends z.ZodType> = z.output<T>;

export const TASK_ID = '3f0c5b1e-8d2a-4c47-9a61-2b7e0d9c4f15';
const SUB_A = subTaskIdFor(TASK_ID, 0);
const SUB_B = subTaskIdFor(TASK_ID, 1);
const CREATED = 1_767_225_600_000;
const DONE = CREATED + 95_000;
const PROMPT = 'Which CRM suits a ten-person sales team?';

export const envelope = (data: unknown, message = 'success') => ({
  success: true,
  code: 200,
  message,
  data,
});

const NAME = 'CRM shortlist, week 12';

export const submissionExample = {
  name: NAME,
  monitorKeywords: 'Acme|acme.com, Globex',
  prompts: [PROMPT],
  platforms: [
    { platform: 'chatgpt', mode: 'search', screenshot: 1 },
    { platform: 'deepseek', channel: 'web', mode: 'reasoning' },
  ],
  regionCode: ['310000'],
  callbackUrl: 'https://hooks.example.com/monitor',
};

const summaries = (status: 'pending' | 'completed' | 'failed') => [
  {
    subTaskId: SUB_A,
    prompt: PROMPT,
    platform: 'chatgpt',
    channel: 'api' as const,
    mode: 'search' as const,
    status: status === 'pending' ? ('pending' as const) : ('completed' as const),
  },
  {
    subTaskId: SUB_B,
    prompt: PROMPT,
    platform: 'deepseek',
    channel: 'web' as const,
    mode: 'reasoning' as const,
    status,
  },
];

export const submitExample = {
  taskId: TASK_ID,
  totalTask: 2,
  status: 'pending',
  pollUrl: pathTo(PATHS.TASK_STATUS, { taskId: TASK_ID }),
  subTaskList: summaries('pending'),
} satisfies Out<typeof submitDataSchema>;

export const statusExample = {
  taskId: TASK_ID,
  name: NAME,
  status: 'partial_completed',
  message: '1/2 completed, 1 failed',
  totalItems: 2,
  completedItems: 1,
  failedItems: 1,
  createdAt: CREATED,
  completedAt: DONE,
  subTaskList: summaries('failed'),
} satisfies Out<typeof statusDataSchema>;

const reference = {
  index: 1,
  title: 'Acme CRM pricing',
  url: 'https://acme.com/pricing',
  site: 'acme.com',
  icon: 'https://acme.com/favicon.ico',
};

const ANSWER = {
  answerContent:
    'For a team of ten, **Acme CRM** is the usual pick [1]; Globex suits larger teams, and **Initech** costs least.',
  referenceList: [reference],
  citationList: [reference],
  reasoningProcess: null,
};
const GROUPS = keywordGroups(parseKeywords(submissionExample.monitorKeywords));
const brand = brandFields(GROUPS, ANSWER);

export const subTaskResultExample = {
  subTaskId: SUB_A,
  platform: 'chatgpt',
  channel: 'api',
  mode: 'search',
  effectiveMode: 'search',
  formatVersion: null,
  answerSource: null,
  modelReported: 'gpt-5-2025-08-07',
  prompt: PROMPT,
  status: 'completed',
  time: CREATED + 41_000,
  pageScreenshot: `https://monitor.example.com/api/business/monitor/screenshot/${'9c'.repeat(16)}.png`,
  mentionScreenshot: null,
  screenshotNote: null,
  ...ANSWER,
  recommendedQuestions: ['How much does Acme CRM cost per seat?'],
  mediaContent: [],
  errorMessage: null,
  proxyIp: '203.0.113.7',
  rawEvidence: null,
  ...brand,
  sentiment: null,
} satisfies Out<typeof subTaskResultSchema>;

const failedSubTask = {
  ...subTaskResultExample,
  subTaskId: SUB_B,
  platform: 'deepseek',
  channel: 'web',
  mode: 'reasoning',
  effectiveMode: null,
  formatVersion: null,
  answerSource: null,
  modelReported: null,
  status: 'failed',
  time: DONE,
  pageScreenshot: null,
  answerContent: null,
  referenceList: [],
  citationList: [],
  recommendedQuestions: [],
  errorMessage: 'no answer: the site showed a captcha on every attempt',
  rawEvidence: `https://monitor.example.com/api/business/monitor/task/result/${TASK_ID}/${SUB_B}/raw`,
  mentions: [],
  mentioned: false,
} satisfies Out<typeof subTaskResultSchema>;

/** The example answer as stored: with its discovered brands, which the result does not show per sub task. */
const storedExample = {
  ...subTaskResultExample,
  discovered: answerBrandFields(GROUPS, ANSWER).discovered,
};

export const visibilityExample: Out<typeof visibilitySchema> = visibilityOf(GROUPS, [
  storedExample,
  failedSubTask,
]);

const UNSEARCHED = {
  answerContent: 'Globex and Acme CRM both suit a small sales team.',
  referenceList: [],
  citationList: [],
  reasoningProcess: null,
};

/** Two search sub tasks on one platform, one of which silently ran without the search. */
export const fallbackVisibilityExample: Out<typeof visibilitySchema> = visibilityOf(GROUPS, [
  storedExample,
  {
    ...subTaskResultExample,
    ...UNSEARCHED,
    ...brandFields(GROUPS, UNSEARCHED),
    effectiveMode: 'standard',
  },
]);

export const resultExample = {
  taskId: TASK_ID,
  name: NAME,
  status: 'partial_completed',
  totalItems: 2,
  completedItems: 1,
  failedItems: 1,
  subTaskList: [subTaskResultExample, failedSubTask],
  visibility: visibilityExample,
} satisfies Out<typeof resultDataSchema>;

export const listExample = {
  total: 1,
  page: 1,
  size: 10,
  tasks: [
    {
      taskId: TASK_ID,
      name: NAME,
      prompts: [PROMPT],
      platforms: [
        { mode: 'search', platform: 'chatgpt', channel: 'api', screenshot: 1 },
        { mode: 'reasoning', platform: 'deepseek', channel: 'web', screenshot: 0 },
      ],
      status: 'partial_completed',
      totalItems: 2,
      completedItems: 1,
      failedItems: 1,
      createdAt: CREATED,
      completedAt: DONE,
    },
  ],
} satisfies Out<typeof listDataSchema>;

export const platformsExample = [
  {
    platform: 'deepseek',
    label: 'DeepSeek',
    vendor: 'DeepSeek',
    aliases: [],
    modes: ['standard', 'reasoning'],
    channel: 'api',
    defaultChannel: 'api',
    serves: 'everywhere',
    channels: {
      api: ['standard', 'reasoning'],
      web: ['standard', 'reasoning', 'search', 'reasoning_search'],
    },
    available: true,
    availability: {
      api: { available: true, missing: [], reason: null },
      web: { available: false, missing: ['account'], reason: 'no usable account' },
    },
  },
] satisfies Out<typeof platformsDataSchema>;

export const SECRET_EXAMPLE = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export const callbackSettingsExample = {
  callbackUrl: 'https://hooks.example.com/monitor',
  secret: SECRET_EXAMPLE,
} satisfies Out<typeof callbackSettingsDataSchema>;

export const callbackDeliveryExample = {
  taskId: TASK_ID,
  kind: 'task',
  subjectId: TASK_ID,
  status: 'SUCCEEDED',
  url: 'https://hooks.example.com/monitor',
  webhookId: `msg_${TASK_ID}`,
  attemptCount: 2,
  maxAttempts: 8,
  nextAttemptAt: null,
  createdAt: DONE,
  finishedAt: DONE + 15_400,
  attempts: [
    {
      attempt: 1,
      at: DONE + 20,
      httpStatus: 502,
      latencyMs: 120,
      error: 'HTTP 502',
      response: 'Bad Gateway',
    },
    {
      attempt: 2,
      at: DONE + 15_300,
      httpStatus: 200,
      latencyMs: 85,
      error: null,
      response: 'ok',
    },
  ],
} satisfies Out<typeof callbackDeliveryDataSchema>;

export const cityInfoExample = [
  {
    port: 8001,
    province: '上海市',
    city: '上海市',
    regionCode: ['310000', '310100'],
    outIp: '198.51.100.20',
    active: true,
  },
] satisfies Out<typeof cityInfoDataSchema>;
