/**
 * A large answered task for the export benchmark and the memory test, written
 * straight through the task models (submitting and answering 2,500 sub tasks
 * would take minutes): realistic 2–4 KB Markdown answers naming the brands,
 * a few references each, the brand fields as the pure API computes them.
 */
import type { Connection } from 'mongoose';
import { brandFields } from '../../services/shared/brand/mentions.js';
import { keywordGroups } from '../../services/shared/brand/groups.js';
import type { Reference } from '../../services/shared/contracts/answer.js';
import { newTaskId, subTaskIdFor } from '../../services/shared/ids.js';
import {
  taskModels,
  type SubTaskDoc,
  type TaskDoc,
} from '../../services/shared/subtasks/models.js';

export const SEED_KEYWORDS = ['Acme|阿克米|acme.com', 'Globex|globex.io', 'Initech'];
const PLATFORMS = [
  {
    platform: 'sandbox',
    channel: 'api' as const,
    mode: 'standard' as const,
    screenshot: 1 as const,
  },
  {
    platform: 'sandbox-web',
    channel: 'web' as const,
    mode: 'standard' as const,
    screenshot: 0 as const,
  },
];
const SENTENCES = [
  'Acme is often named first for reliability, with "quoted" praise from reviewers.',
  '阿克米在中国市场的份额持续增长，用户评价较高。',
  'Globex competes on price, though support is slower, according to several forums.',
  'Initech appears in enterprise comparisons, mostly for its reporting features.',
  'See the [Acme documentation](https://www.acme.com/docs) and **independent tests**.',
  'Many buyers shortlist two or three vendors, then run a pilot of four to six weeks.',
  '- Price, support, integrations; each matters, but in a different order per team.',
  '综合来看，选择取决于预算、团队规模以及现有系统的兼容性。',
];

/** The i-th answer: 2 to 4 KB of Markdown, deterministic. */
export function seedAnswer(i: number): string {
  const target = 2_048 + ((i * 7_919) % 2_048);
  const parts: string[] = [`## Answer ${i}`];
  let length = parts[0]!.length;
  for (let k = 0; length < target; k++) {
    const s = SENTENCES[(i + k * 3) % SENTENCES.length]!;
    parts.push(s);
    length += Buffer.byteLength(s) + 1;
  }
  return parts.join('\n');
}

function seedReferences(i: number): Reference[] {
  const sites = ['www.acme.com', 'globex.io', 'news.example.cn', 'forum.example.org'];
  return Array.from({ length: 3 + (i % 3) }, (_, k) => ({
    index: k + 1,
    title: `Source ${k + 1} of answer ${i}, "reviewed"`,
    url: `https://${sites[(i + k) % sites.length]}/article/${i}-${k}`,
    site: sites[(i + k) % sites.length]!,
    icon: '',
  }));
}

/** Writes a completed task of `subTasks` sub tasks owned by `userId`; returns its id. */
export async function seedLargeTask(
  conn: Connection,
  userId: number,
  subTasks: number,
): Promise<string> {
  const { Task, SubTask } = taskModels(conn);
  const taskId = newTaskId();
  const groups = keywordGroups(SEED_KEYWORDS);
  const prompts = Array.from(
    { length: Math.ceil(subTasks / PLATFORMS.length) },
    (_, p) => `Which vendor, of Acme, Globex and Initech, is best for team ${p}?`,
  );
  const now = Date.now();
  const task: TaskDoc = {
    _id: taskId,
    userId,
    prompts,
    platforms: PLATFORMS.map(({ platform, channel, mode, screenshot }) => ({
      platform,
      channel,
      mode,
      screenshot,
    })),
    regionCode: null,
    callbackUrl: null,
    monitorKeywords: SEED_KEYWORDS.join(','),
    keywords: SEED_KEYWORDS,
    status: 'completed',
    totalItems: subTasks,
    completedItems: subTasks,
    failedItems: 0,
    createdAt: now,
    completedAt: now,
    version: subTasks,
    subtasksWritten: true,
  };
  await Task.collection.insertOne(task as never);
  const BATCH = 250;
  for (let from = 0; from < subTasks; from += BATCH) {
    const docs = [];
    for (let seq = from; seq < Math.min(subTasks, from + BATCH); seq++) {
      const p = PLATFORMS[seq % PLATFORMS.length]!;
      const referenceList = seedReferences(seq);
      const answer = {
        answerContent: seedAnswer(seq),
        referenceList,
        citationList: referenceList.filter((r) => r.index % 2 === 1),
        reasoningProcess: null,
      };
      const _id = subTaskIdFor(taskId, seq);
      docs.push({
        _id,
        taskId,
        userId,
        seq,
        prompt: prompts[Math.floor(seq / PLATFORMS.length)]!,
        platform: p.platform,
        channel: p.channel,
        mode: p.mode,
        effectiveMode: p.mode,
        screenshot: p.screenshot,
        status: 'completed',
        attempts: 1,
        createdAt: now,
        time: now,
        pageScreenshot: p.screenshot ? `/screenshots/${_id}.png` : null,
        ...answer,
        recommendedQuestions: [],
        mediaContent: [],
        errorMessage: null,
        proxyIp: null,
        ...brandFields(groups, answer),
        sentiment: null,
      } satisfies SubTaskDoc & Record<string, unknown>);
    }
    await SubTask.collection.insertMany(docs as never[], { ordered: false });
  }
  return taskId;
}
