/**
 * The services build their answers in the shapes of services/shared/contracts/;
 * clients read the types derived from the published zod schemas
 * (services/shared/contracts/http.ts). Each value below is typed as the one, read back
 * as the other (so `tsc` fails when a field changes on one side only) and
 * parsed by the schema (so the published contract accepts what is built).
 */
import t from 'tap';
import {
  mentionSchema,
  referenceSchema,
  statusDataSchema,
  visibilitySchema,
  type Mention,
  type Reference,
  type StatusData,
  type Visibility,
} from '../../../services/shared/contracts/http.js';
import type * as answer from '../../../services/shared/contracts/answer.js';
import type * as brand from '../../../services/shared/contracts/brand.js';
import type { TaskStatusView } from '../../../services/shared/contracts/task-progress.js';

const TASK_ID = '0b6c2b8e-7f3a-4d6e-9a51-2c9a0f5e1d34';

t.test('a mention', async (t) => {
  const built: brand.Mention = {
    keyword: 'Acme',
    count: 2,
    firstIndex: 14,
    position: 2,
    groupRank: 1,
    inReasoning: false,
    inReferences: true,
    inCitations: false,
  };
  const read: Mention = built;
  const back: brand.Mention = mentionSchema.parse(read);
  t.strictSame(back, built);
});

t.test('a reference', async (t) => {
  const built: answer.Reference = {
    index: 1,
    title: 'CRM compared',
    url: 'https://a.example/crm',
    site: 'a.example',
    icon: '',
  };
  const read: Reference = built;
  const back: answer.Reference = referenceSchema.parse(read);
  t.strictSame(back, built);
});

t.test('a visibility summary', async (t) => {
  const built: brand.Visibility = {
    keywords: ['Acme'],
    groups: [{ keyword: 'Acme', aliases: ['Acme', 'acme.com'], domains: ['acme.com'] }],
    rows: [
      {
        keyword: 'Acme',
        platform: 'sandbox',
        channel: 'web',
        answers: 2,
        mentionRate: 0.5,
        averagePosition: 2,
        bestPosition: 2,
        top1Share: 0,
        top3Share: 0.5,
        averageGroupRank: 1,
        bestGroupRank: 1,
        shareOfVoice: 1,
        citationShare: 0,
      },
    ],
    domains: [
      {
        platform: 'sandbox',
        top: [{ domain: 'acme.com', count: 1, tag: 'owned', keyword: 'Acme' }],
      },
    ],
    discovered: [
      {
        name: 'Initech',
        answers: 1,
        share: 0.5,
        averagePosition: 1,
        bestPosition: 1,
        places: [{ platform: 'sandbox', channel: 'web', answers: 1, share: 0.5 }],
        example: { subTaskId: TASK_ID, platform: 'sandbox', prompt: 'Best CRM?' },
      },
    ],
    opportunities: [
      {
        domain: 'reviews.example',
        tag: 'other',
        answers: 1,
        userAnswers: 0,
        retrievedAnswers: 0,
        competitors: ['Initech'],
        pages: [{ url: 'https://reviews.example/crm', title: 'CRM compared' }],
        retrieved: [],
        prompts: ['Best CRM?'],
        places: [{ platform: 'sandbox', channel: 'web' }],
      },
    ],
  };
  const read: Visibility = built;
  const back: brand.Visibility = visibilitySchema.parse(read);
  t.strictSame(back, built);
});

t.test('a status view', async (t) => {
  const built: TaskStatusView = {
    taskId: TASK_ID,
    name: 'CRM study',
    status: 'processing',
    message: '1/2 completed, 0 failed',
    totalItems: 2,
    completedItems: 1,
    failedItems: 0,
    createdAt: 1_767_225_600_000,
    completedAt: null,
    subTaskList: [
      {
        subTaskId: `${TASK_ID}-0`,
        prompt: 'Which CRM?',
        platform: 'sandbox',
        channel: 'api',
        mode: 'search',
        status: 'completed',
      },
    ],
  };
  const read: StatusData = built;
  const back: TaskStatusView = statusDataSchema.parse(read);
  t.strictSame(back, built);
});
