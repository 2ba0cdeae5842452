/**
 * ChatGLM end to end through the REST API on the embedded default (every
 * service in one process, real Chromium), with one account imported with
 * the replica's login: two batches submitted at once (standard, and deep
 * thinking with search) both complete with the last snapshot's exact
 * fields, the page's model label, the effective mode and a screenshot, and
 * the site never saw two live streams of the account (its one-stream rule
 * held by the account's hold, not by luck). The operator's `driver-check`
 * answers through the same account. A login wall then fails its sub task
 * within seconds and leaves the account needs_human.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountView } from '../../../services/accounts/view.js';
import type { Mode } from '../../../services/shared/platforms.js';
import { browserDeps } from '../../../bin/accounts/browser.js';
import { driverCheck } from '../../../bin/accounts/driver-check.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { until } from '../../helpers/wait.js';
import { expectedWebAnswer } from '../../../replicas/zhipu/expected.js';
import { startZhipuReplica } from '../../../replicas/zhipu/server.js';

t.setTimeout(240_000);

const M = '/api/business/monitor';
const NOT_YET = /no live crawler node runs it|proxy port serves now|no active proxy port now/;

// Frames slow enough that a second stream, had the account run two, would overlap the first.
const replica = await startZhipuReplica({ latencyMs: 40 });
t.teardown(() => replica.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  PLATFORM_CHANNELS: 'zhipu=web',
  ZHIPU_WEB_URL: replica.url,
  ZHIPU_WEB_GAP_MS: '0',
  WEB_GAP_JITTER: '0',
  // The only account: a retry after its login wall has no other one to wait for.
  ACCOUNT_WAIT_MS: '1000',
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
});
const user = await svc.newUser('zhipu');
const account = await svc.broker.call<AccountView, object>('accounts.import', {
  platform: 'zhipu',
  label: 'replica',
  storageState: replica.storageState(),
});

const submit = (prompts: string[], modes: readonly Mode[]) =>
  until(
    'the api to take a ChatGLM web batch',
    async () => {
      const res = await svc.client.post(
        `${M}/task/batch/shared`,
        {
          prompts,
          platforms: modes.map((mode) => ({
            platform: 'zhipu',
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
  pageScreenshot: string | null;
}

async function subTasks(taskId: string): Promise<Sub[]> {
  await untilTaskFinal(svc.client, user.token, taskId, 180_000, 500);
  const res = await svc.client.get(`${M}/task/result/${taskId}`, user.token);
  return res.body.data.subTaskList as Sub[];
}

t.test(
  'two batches at once on one account: exact answers, one live stream at a time',
  async (t) => {
    const prompt = '国产咖啡品牌';
    const modes = ['standard', 'reasoning_search'] as const;
    const taskIds = await Promise.all(modes.map((mode) => submit([prompt], [mode])));
    const subs = (await Promise.all(taskIds.map(subTasks))).flat();
    t.equal(subs.length, modes.length);
    for (const sub of subs) {
      t.equal(sub.status, 'completed', `${sub.mode}: ${sub.errorMessage}`);
      const want = expectedWebAnswer(prompt, sub.mode);
      t.match(
        sub,
        {
          answerContent: want.answerContent,
          referenceList: want.referenceList,
          citationList: want.citationList,
          reasoningProcess: want.reasoningProcess,
          effectiveMode: sub.mode,
          modelReported: want.modelReported,
        },
        sub.mode,
      );
      t.match(sub.pageScreenshot, /\/screenshot\/[0-9a-f]{32}\.png$/, `${sub.mode}: screenshot`);
    }
    t.equal(replica.asked.length, 2, 'two chat calls');
    t.equal(replica.refusedBusy, 0, 'none met a live stream of the account');
  },
);

t.test("driver-check: the operator's run through the same account", async (t) => {
  const deps = browserDeps(
    {
      call: (action, params) => svc.broker.call(`accounts.${action}`, params as object),
      config: svc.config,
      log: () => undefined,
    },
    false,
  );
  const r = await driverCheck(deps, {
    platform: 'zhipu',
    account: 'replica',
    prompt: '国产咖啡品牌',
    mode: 'search',
    outDir: mkdtempSync(join(tmpdir(), 'zhipu-check-')),
  });
  t.equal(r.failure, null);
  t.match(r.answer, {
    answerContent: expectedWebAnswer('国产咖啡品牌', 'search').answerContent,
    effectiveMode: 'search',
    formatVersion: 'glm-2025',
  });
});

t.test('an expired session: the account needs a person within seconds', async (t) => {
  const started = Date.now();
  const taskId = await submit(['保险 #replica:login_wall'], ['standard']);
  const view = await until(
    'the account to need a person',
    async () => {
      const list = await svc.broker.call<AccountView[], object>('accounts.list', {
        platform: 'zhipu',
      });
      return list.find((a) => a.id === account.id && a.state === 'needs_human');
    },
    20_000,
    200,
  );
  t.ok(Date.now() - started < 20_000, `needs_human after ${Date.now() - started} ms`);
  t.match(view, {
    reason: /^session_expired: HTTP 401 on the chat call/,
    humanKind: 'session_expired',
  });
  const [sub] = await subTasks(taskId);
  t.equal(sub!.status, 'failed');
});
