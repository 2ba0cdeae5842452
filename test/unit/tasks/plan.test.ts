import t from 'tap';
import { planSubTasks, planTask } from '../../../services/tasks/plan.js';
import { subTaskIdFor } from '../../../services/shared/ids.js';
import { subTaskResult } from '../../../services/shared/task-views.js';
import { toQueueItem } from '../../../services/shared/subtasks/queue-item.js';
import type { Submission } from '../../../services/shared/requests/submission.js';

const TASK = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const NOW = 1_700_000_000_000;

const submission: Submission = {
  name: 'Week 12',
  prompts: ['p1', 'p2', 'p3'],
  platforms: [
    { platform: 'chatgpt', channel: 'api', mode: 'search', screenshot: 1 },
    { platform: 'deepseek', channel: 'api', mode: 'reasoning', screenshot: 0 },
    { platform: 'deepseek', channel: 'web', mode: 'search', screenshot: 1 },
  ],
  regionCode: '110000',
  callbackUrl: 'https://example.com/hook',
  monitorKeywords: 'Acme，阿克米',
  keywords: ['Acme', '阿克米'],
};

t.test('planTask', async (t) => {
  t.same(planTask(TASK, 42, submission, NOW), {
    _id: TASK,
    userId: 42,
    name: 'Week 12',
    prompts: ['p1', 'p2', 'p3'],
    platforms: [
      { platform: 'chatgpt', channel: 'api', mode: 'search', screenshot: 1 },
      { platform: 'deepseek', channel: 'api', mode: 'reasoning', screenshot: 0 },
      { platform: 'deepseek', channel: 'web', mode: 'search', screenshot: 1 },
    ],
    regionCode: '110000',
    callbackUrl: 'https://example.com/hook',
    monitorKeywords: 'Acme，阿克米',
    keywords: ['Acme', '阿克米'],
    status: 'pending',
    totalItems: 9,
    completedItems: 0,
    failedItems: 0,
    createdAt: NOW,
    completedAt: null,
    version: 0,
    subtasksWritten: false,
  });
});

t.test('planTask with nulls', async (t) => {
  const task = planTask(
    TASK,
    1,
    { ...submission, regionCode: null, callbackUrl: null, monitorKeywords: null, keywords: [] },
    5,
  );
  t.equal(task.regionCode, null);
  t.equal(task.callbackUrl, null);
  t.equal(task.monitorKeywords, null);
  t.same(task.keywords, []);
  t.equal(task.createdAt, 5);
});

t.test('planSubTasks: prompt-major order with seq and derived ids', async (t) => {
  const task = planTask(TASK, 42, submission, NOW);
  const subs = planSubTasks(task);
  t.equal(subs.length, 9);
  t.same(
    subs.map((s) => [s.seq, s.prompt, s.platform, s.channel, s.mode, s.screenshot]),
    [
      [0, 'p1', 'chatgpt', 'api', 'search', 1],
      [1, 'p1', 'deepseek', 'api', 'reasoning', 0],
      [2, 'p1', 'deepseek', 'web', 'search', 1],
      [3, 'p2', 'chatgpt', 'api', 'search', 1],
      [4, 'p2', 'deepseek', 'api', 'reasoning', 0],
      [5, 'p2', 'deepseek', 'web', 'search', 1],
      [6, 'p3', 'chatgpt', 'api', 'search', 1],
      [7, 'p3', 'deepseek', 'api', 'reasoning', 0],
      [8, 'p3', 'deepseek', 'web', 'search', 1],
    ],
  );
  t.same(
    subs.map((s) => s._id),
    [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => subTaskIdFor(TASK, i)),
  );
  t.equal(new Set(subs.map((s) => s._id)).size, 9);
});

t.test('planSubTasks: every sub task starts pending, without result fields', async (t) => {
  const task = planTask(TASK, 42, submission, NOW);
  const [first] = planSubTasks(task);
  t.strictSame(first, {
    _id: subTaskIdFor(TASK, 0),
    taskId: TASK,
    userId: 42,
    seq: 0,
    prompt: 'p1',
    platform: 'chatgpt',
    channel: 'api',
    mode: 'search',
    screenshot: 1,
    status: 'pending',
    attempts: 0,
    createdAt: NOW,
    regionCode: '110000',
  });
  for (const s of planSubTasks(task)) {
    t.equal(s.status, 'pending');
    t.equal(s.attempts, 0);
    t.equal(s.taskId, TASK);
    t.equal(s.createdAt, NOW);
  }
  const anywhere = planTask(TASK, 42, { ...submission, regionCode: null }, NOW);
  t.notOk('regionCode' in planSubTasks(anywhere)[0]!, 'no region: the field is absent');
});

t.test('a planned sub task reads as an empty result', async (t) => {
  const [first] = planSubTasks(planTask(TASK, 42, submission, NOW));
  t.match(subTaskResult(first!), {
    channel: 'api',
    mode: 'search',
    effectiveMode: null,
    status: 'pending',
    time: null,
    pageScreenshot: null,
    answerContent: null,
    referenceList: [],
    citationList: [],
    reasoningProcess: null,
    recommendedQuestions: [],
    mediaContent: [],
    errorMessage: null,
    proxyIp: null,
  });
});

t.test('planning is deterministic, so a half-written task can be completed', async (t) => {
  const task = planTask(TASK, 42, submission, NOW);
  t.same(planSubTasks(task), planSubTasks(task));
});

t.test('a single prompt and platform', async (t) => {
  const task = planTask(
    TASK,
    1,
    { ...submission, prompts: ['only'], platforms: [submission.platforms[1]!] },
    NOW,
  );
  t.equal(task.totalItems, 1);
  t.same(
    planSubTasks(task).map((s) => [s.seq, s.prompt, s.platform]),
    [[0, 'only', 'deepseek']],
  );
});

t.test('a planned sub task queues with its channel', async (t) => {
  const subs = planSubTasks(planTask(TASK, 42, submission, NOW));
  t.same(
    subs.slice(0, 3).map((s) => toQueueItem(s).channel),
    ['api', 'api', 'web'],
  );
});

t.test(
  'only sub tasks with screenshots of mentions carry the keywords to their lease',
  async (t) => {
    const mode2 = {
      ...submission,
      platforms: [
        {
          platform: 'chatgpt',
          channel: 'api' as const,
          mode: 'search' as const,
          screenshot: 2 as const,
        },
        {
          platform: 'deepseek',
          channel: 'api' as const,
          mode: 'search' as const,
          screenshot: 1 as const,
        },
      ],
    };
    const [two, one] = planSubTasks(planTask(TASK, 42, mode2, NOW));
    t.same(two!.keywords, ['Acme', '阿克米']);
    t.same(toQueueItem(two!).keywords, ['Acme', '阿克米']);
    t.notOk('keywords' in one!, 'mode 1: the document stays lean');
    t.notOk('keywords' in toQueueItem(one!));
    const none = planSubTasks(planTask(TASK, 42, { ...mode2, keywords: [] }, NOW))[0]!;
    t.notOk('keywords' in none, 'mode 2 without keywords: none carried');
    t.notOk('keywords' in toQueueItem(none));
  },
);

t.test(
  "a monitor's samples: each its own sub task with its index, cells kept together",
  async (t) => {
    const task = planTask(TASK, 42, { ...submission, prompts: ['p1', 'p1'] }, NOW, 2);
    t.equal(task.samples, 2);
    t.equal(task.totalItems, 12, '2 prompts × 3 platforms × 2 samples');
    const subs = planSubTasks(task);
    t.equal(subs.length, 12, 'the same prompt twice is not merged either');
    t.strictSame(
      subs.slice(0, 4).map((s) => [s.seq, s.prompt, s.platform, s.channel, s.sample]),
      [
        [0, 'p1', 'chatgpt', 'api', 0],
        [1, 'p1', 'chatgpt', 'api', 1],
        [2, 'p1', 'deepseek', 'api', 0],
        [3, 'p1', 'deepseek', 'api', 1],
      ],
    );
    t.equal(new Set(subs.map((s) => s._id)).size, 12, 'every sample has its own id');
    t.notOk('samples' in planTask(TASK, 42, submission, NOW), 'a plain task has no samples');
    t.notOk(
      planSubTasks(planTask(TASK, 42, submission, NOW)).some((s) => 'sample' in s),
      'nor sample indexes',
    );
  },
);
