import { planSubTasks } from '../../../services/tasks/plan.js';
import t from 'tap';
import {
  absoluteScreenshot,
  counters,
  progressMessage,
  subTaskResult,
  subTaskSummary,
  taskListItem,
  taskResultView,
  taskStatusView,
} from '../../../services/shared/task-views.js';
import type { SubTaskDoc, TaskDoc } from '../../../services/shared/subtasks/models.js';

const TASK = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const SUB = 'aaaaaaaa-bbbb-8ccc-9ddd-eeeeeeeeeeee';

const RESULT_KEYS = [
  'subTaskId',
  'platform',
  'channel',
  'mode',
  'effectiveMode',
  'formatVersion',
  'answerSource',
  'modelReported',
  'prompt',
  'status',
  'time',
  'pageScreenshot',
  'mentionScreenshot',
  'screenshotNote',
  'answerContent',
  'referenceList',
  'citationList',
  'reasoningProcess',
  'recommendedQuestions',
  'mediaContent',
  'errorMessage',
  'proxyIp',
  'mentions',
  'mentioned',
  'sentiment',
];

function task(over: Partial<TaskDoc> = {}): TaskDoc {
  return {
    _id: TASK,
    userId: 7,
    prompts: ['p1', 'p2'],
    platforms: [
      { platform: 'chatgpt', channel: 'api', mode: 'search', screenshot: 1 },
      { platform: 'claude', channel: 'api', mode: 'standard', screenshot: 0 },
    ],
    regionCode: '110000',
    callbackUrl: 'https://example.com/hook',
    monitorKeywords: 'Acme',
    keywords: ['Acme'],
    status: 'processing',
    totalItems: 4,
    completedItems: 2,
    failedItems: 1,
    createdAt: 1000,
    completedAt: null,
    version: 0,
    subtasksWritten: true,
    ...over,
  };
}

/** The first planned sub task of task(), i.e. exactly what a submission stores. */
function sub(over: Partial<SubTaskDoc> = {}): SubTaskDoc {
  return { ...planSubTasks(task())[0]!, _id: SUB, ...over };
}

t.test('progressMessage', async (t) => {
  t.equal(progressMessage(50, 12, 3), '12/50 completed, 3 failed');
  t.equal(progressMessage(0, 0, 0), '0/0 completed, 0 failed');
  t.equal(progressMessage(4, 4, 0), '4/4 completed, 0 failed');
});

t.test('subTaskSummary', async (t) => {
  const s = subTaskSummary(sub());
  t.same(Object.keys(s), ['subTaskId', 'prompt', 'platform', 'channel', 'mode', 'status']);
  t.same(s, {
    subTaskId: SUB,
    prompt: 'p1',
    platform: 'chatgpt',
    channel: 'api',
    mode: 'search',
    status: 'pending',
  });
});

t.test('subTaskResult has exactly the spec 2.3 keys', async (t) => {
  const r = subTaskResult(sub());
  t.same(Object.keys(r), RESULT_KEYS);
  t.same(r, {
    subTaskId: SUB,
    platform: 'chatgpt',
    channel: 'api',
    mode: 'search',
    effectiveMode: null,
    formatVersion: null,
    answerSource: null,
    modelReported: null,
    prompt: 'p1',
    status: 'pending',
    time: null,
    pageScreenshot: null,
    mentionScreenshot: null,
    screenshotNote: null,
    answerContent: null,
    referenceList: [],
    citationList: [],
    reasoningProcess: null,
    recommendedQuestions: [],
    mediaContent: [],
    errorMessage: null,
    proxyIp: null,
    mentions: [],
    mentioned: false,
    sentiment: null,
  });
  t.notOk('attempts' in r, 'internal fields are not exposed');
  t.notOk('userId' in r);
  t.notOk('_id' in r);
});

t.test('subTaskResult fills missing fields with null or empty arrays', async (t) => {
  const bare = {
    _id: SUB,
    taskId: TASK,
    platform: 'claude',
    channel: 'api',
    mode: 'standard',
    prompt: 'p2',
    status: 'processing',
  } as unknown as SubTaskDoc;
  t.strictSame(subTaskResult(bare), {
    subTaskId: SUB,
    platform: 'claude',
    channel: 'api',
    mode: 'standard',
    effectiveMode: null,
    formatVersion: null,
    answerSource: null,
    modelReported: null,
    prompt: 'p2',
    status: 'processing',
    time: null,
    pageScreenshot: null,
    mentionScreenshot: null,
    screenshotNote: null,
    answerContent: null,
    referenceList: [],
    citationList: [],
    reasoningProcess: null,
    recommendedQuestions: [],
    mediaContent: [],
    errorMessage: null,
    proxyIp: null,
    mentions: [],
    mentioned: false,
    sentiment: null,
  });
});

t.test('subTaskResult passes a finished result through', async (t) => {
  const ref = { index: 1, title: 'Acme', url: 'https://acme.test', site: 'acme.test', icon: '' };
  const done = sub({
    status: 'completed',
    time: 2000,
    pageScreenshot: 'https://cdn.test/s.png',
    answerContent: '# Answer',
    referenceList: [ref],
    citationList: [ref],
    reasoningProcess: { summary: 's', content: 'c' },
    recommendedQuestions: ['q?'],
    mediaContent: [{ type: 'image' }],
    proxyIp: '10.1.2.3',
    effectiveMode: 'standard',
    modelReported: 'gpt-5-2025-08-07',
  });
  t.strictSame(subTaskResult(done), {
    subTaskId: SUB,
    platform: 'chatgpt',
    channel: 'api',
    mode: 'search',
    effectiveMode: 'standard',
    formatVersion: null,
    answerSource: null,
    modelReported: 'gpt-5-2025-08-07',
    prompt: 'p1',
    status: 'completed',
    time: 2000,
    pageScreenshot: 'https://cdn.test/s.png',
    mentionScreenshot: null,
    screenshotNote: null,
    answerContent: '# Answer',
    referenceList: [ref],
    citationList: [ref],
    reasoningProcess: { summary: 's', content: 'c' },
    recommendedQuestions: ['q?'],
    mediaContent: [{ type: 'image' }],
    errorMessage: null,
    proxyIp: '10.1.2.3',
    mentions: [],
    mentioned: false,
    sentiment: null,
  });
  t.equal(
    subTaskResult(sub({ status: 'failed', errorMessage: 'upstream 502' })).errorMessage,
    'upstream 502',
  );
  t.equal(
    subTaskResult(sub({ status: 'completed' })).effectiveMode,
    'search',
    'an answer stored before effective modes were recorded ran the requested mode',
  );
  t.equal(subTaskResult(sub({ status: 'failed' })).effectiveMode, null, 'no answer, no mode');
  t.equal(
    subTaskResult(sub({ status: 'completed', formatVersion: 'kimi-connect-1' })).formatVersion,
    'kimi-connect-1',
    'the stream format the web driver recognised',
  );
  t.equal(
    subTaskResult(sub({ status: 'completed', answerSource: 'dom' })).answerSource,
    'dom',
    'the witness the answer was taken from',
  );
});

t.test('screenshot mode 2: the clip around the first mention, or the note', async (t) => {
  const framed = subTaskResult(
    sub({ status: 'completed', pageScreenshot: '/s/a.png', mentionScreenshot: '/s/b.png' }),
  );
  t.equal(framed.screenshotNote, null);
  t.match(absoluteScreenshot(framed, 'https://api.test'), {
    pageScreenshot: 'https://api.test/s/a.png',
    mentionScreenshot: 'https://api.test/s/b.png',
  });
  const plain = subTaskResult(
    sub({
      status: 'completed',
      pageScreenshot: '/s/a.png',
      screenshotNote: 'mode 2 without keywords: a plain screenshot',
    }),
  );
  t.equal(plain.mentionScreenshot, null);
  t.equal(plain.screenshotNote, 'mode 2 without keywords: a plain screenshot');
});

t.test('counters', async (t) => {
  t.strictSame(counters(task()), { totalItems: 4, completedItems: 2, failedItems: 1 });
});

t.test('taskStatusView', async (t) => {
  const v = taskStatusView(task(), [sub(), sub({ _id: 'x', seq: 1, platform: 'claude' })]);
  t.same(Object.keys(v), [
    'taskId',
    'name',
    'status',
    'message',
    'totalItems',
    'completedItems',
    'failedItems',
    'createdAt',
    'completedAt',
    'subTaskList',
  ]);
  t.strictSame(v, {
    taskId: TASK,
    name: null,
    status: 'processing',
    message: '2/4 completed, 1 failed',
    totalItems: 4,
    completedItems: 2,
    failedItems: 1,
    createdAt: 1000,
    completedAt: null,
    subTaskList: [
      {
        subTaskId: SUB,
        prompt: 'p1',
        platform: 'chatgpt',
        channel: 'api',
        mode: 'search',
        status: 'pending',
      },
      {
        subTaskId: 'x',
        prompt: 'p1',
        platform: 'claude',
        channel: 'api',
        mode: 'search',
        status: 'pending',
      },
    ],
  });
  const legacy = { ...task() } as Partial<TaskDoc>;
  delete legacy.completedAt;
  t.equal(taskStatusView(legacy as TaskDoc, []).completedAt, null, 'missing completedAt → null');
});

t.test('taskResultView', async (t) => {
  const v = taskResultView(task({ status: 'completed', completedAt: 5000 }), [sub()]);
  t.same(Object.keys(v), [
    'taskId',
    'name',
    'status',
    'totalItems',
    'completedItems',
    'failedItems',
    'subTaskList',
    'visibility',
  ]);
  t.equal(v.taskId, TASK);
  t.equal(v.name, null, 'a task stored without a name has none');
  t.equal(v.status, 'completed');
  t.equal(v.subTaskList.length, 1);
  t.same(Object.keys(v.subTaskList[0]!), RESULT_KEYS);
  t.same(v.visibility.keywords, ['Acme'], 'the visibility of the task keyword groups');
});

t.test('taskListItem', async (t) => {
  const item = taskListItem(task({ status: 'completed', completedAt: 9000, name: 'Week 12' }));
  t.same(Object.keys(item), [
    'taskId',
    'name',
    'prompts',
    'platforms',
    'status',
    'totalItems',
    'completedItems',
    'failedItems',
    'createdAt',
    'completedAt',
  ]);
  t.strictSame(item, {
    taskId: TASK,
    name: 'Week 12',
    prompts: ['p1', 'p2'],
    platforms: [
      { mode: 'search', platform: 'chatgpt', channel: 'api', screenshot: 1 },
      { mode: 'standard', platform: 'claude', channel: 'api', screenshot: 0 },
    ],
    status: 'completed',
    totalItems: 4,
    completedItems: 2,
    failedItems: 1,
    createdAt: 1000,
    completedAt: 9000,
  });
  t.same(Object.keys(item.platforms[0]!), ['mode', 'platform', 'channel', 'screenshot']);
  const withExtra = task({
    platforms: [
      { platform: 'kimi', channel: 'web', mode: 'standard', screenshot: 2, _id: 'x' } as never,
    ],
  });
  t.strictSame(
    taskListItem(withExtra).platforms,
    [{ mode: 'standard', platform: 'kimi', channel: 'web', screenshot: 2 }],
    'stored extras are not leaked',
  );
  t.notOk('userId' in item);
  t.notOk('keywords' in item);
  t.notOk('callbackUrl' in item);
});
