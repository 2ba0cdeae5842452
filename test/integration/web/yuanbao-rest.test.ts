/**
 * Yuanbao end to end through the REST API on the embedded default (every
 * service in one process, real Chromium): one account imported with the
 * replica's login runs a batch in standard mode (Hunyuan) and one with
 * thinking and search (DeepSeek inside Yuanbao, the operator's choice);
 * each answer carries the stream's exact fields, the model the page's switch
 * names, the effective mode and a screenshot. A login wall then fails its sub task
 * within seconds with the signal and leaves the account needs_human.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import type { AccountView } from '../../../services/accounts/view.js';
import type { Mode } from '../../../services/shared/platforms.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { until } from '../../helpers/wait.js';
import { expectedWebAnswer } from '../../../replicas/yuanbao/expected.js';
import { startYuanbaoReplica } from '../../../replicas/yuanbao/server.js';

t.setTimeout(240_000);

const M = '/api/business/monitor';
const NOT_YET = /no live crawler node runs it|proxy port serves now|no active proxy port now/;

const replica = await startYuanbaoReplica({ latencyMs: 5 });
t.teardown(() => replica.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  PLATFORM_CHANNELS: 'yuanbao=web',
  YUANBAO_WEB_URL: replica.url,
  YUANBAO_WEB_MODELS: 'reasoning_search=deepseek',
  YUANBAO_WEB_GAP_MS: '0',
  WEB_GAP_JITTER: '0',
  // The only account: a retry after its login wall has no other one to wait for.
  ACCOUNT_WAIT_MS: '1000',
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
});
const user = await svc.newUser('yuanbao');
const account = await svc.broker.call<AccountView, object>('accounts.import', {
  platform: 'yuanbao',
  label: 'replica',
  storageState: replica.storageState(),
});

const submit = (prompts: string[], modes: readonly Mode[]) =>
  until(
    'the api to take a Yuanbao web batch',
    async () => {
      const res = await svc.client.post(
        `${M}/task/batch/shared`,
        {
          prompts,
          platforms: modes.map((mode) => ({
            platform: 'yuanbao',
            mode,
            channel: 'web',
            screenshot: 1,
          })),
        },
        user.token,
      );
      if (res.status === 200) return res.body.data.taskId as string;
      if (res.status === 400 && NOT_YET.test(res.text)) return undefined;
      throw new Error(`submit: ${res.status} ${res.text}`);
    },
    60_000,
    300,
  );

interface Sub {
  prompt: string;
  mode: Mode;
  status: string;
  effectiveMode: Mode | null;
  errorMessage: string | null;
  answerContent: string | null;
  referenceList: unknown[];
  citationList: unknown[];
  reasoningProcess: unknown;
  pageScreenshot: string | null;
}

async function subTasks(taskId: string): Promise<Sub[]> {
  await untilTaskFinal(svc.client, user.token, taskId, 180_000, 500);
  const res = await svc.client.get(`${M}/task/result/${taskId}`, user.token);
  return res.body.data.subTaskList as Sub[];
}

t.test(
  'Hunyuan and DeepSeek inside Yuanbao: the exact fields, the model, the effective mode, a screenshot',
  async (t) => {
    const prompt = '公众号运营技巧';
    // One batch per mode (a batch names each platform once); the one account runs them in turn.
    const modes = ['standard', 'reasoning_search'] as const;
    const taskIds = await Promise.all(modes.map((mode) => submit([prompt], [mode])));
    const subs = (await Promise.all(taskIds.map(subTasks))).flat();
    t.equal(subs.length, modes.length);
    for (const sub of subs) {
      t.equal(sub.status, 'completed', `${sub.mode}: ${sub.errorMessage}`);
      const want = expectedWebAnswer(
        prompt,
        sub.mode,
        sub.mode === 'reasoning_search' ? 'deepseek' : 'hunyuan',
      );
      t.match(
        sub,
        {
          answerContent: want.answerContent,
          referenceList: want.referenceList,
          citationList: want.citationList,
          reasoningProcess: want.reasoningProcess,
          effectiveMode: sub.mode,
          // The page's model switch, recorded as the API channel records the response's model.
          modelReported: want.modelReported,
        },
        sub.mode,
      );
      t.match(sub.pageScreenshot, /\/screenshot\/[0-9a-f]{32}\.png$/, `${sub.mode}: screenshot`);
    }
  },
);

t.test(
  'an expired session: the account needs a person within seconds, the sub task fails',
  async (t) => {
    const started = Date.now();
    const taskId = await submit(['保险 #replica:login_wall'], ['standard']);
    const view = await until(
      'the account to need a person',
      async () => {
        const list = await svc.broker.call<AccountView[], object>('accounts.list', {
          platform: 'yuanbao',
        });
        return list.find((a) => a.id === account.id && a.state === 'needs_human');
      },
      20_000,
      200,
    );
    t.ok(Date.now() - started < 20_000, `needs_human after ${Date.now() - started} ms`);
    // The chat call's 401 after the page showed the logged-in chat: the session died.
    t.match(view, {
      reason: /^session_expired: HTTP 401 on the chat call/,
      humanKind: 'session_expired',
    });
    const [sub] = await subTasks(taskId);
    t.equal(sub!.status, 'failed');
  },
);
