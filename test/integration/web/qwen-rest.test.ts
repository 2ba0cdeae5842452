/**
 * Qwen end to end on the embedded default (every service in one process,
 * real Chromium): one account imported with the replica's login runs a
 * batch through the REST API in standard mode and one with thinking and
 * search; each answer carries the stream's exact fields, the model the
 * page's picker names, the effective mode and a screenshot. `driver-check`
 * then runs the same account as an operator would, printing the format that
 * answered. An expired session last fails its sub task within seconds and
 * leaves the account needs_human.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountView } from '../../../services/accounts/view.js';
import type { Mode } from '../../../services/shared/platforms.js';
import { browserDeps } from '../../../bin/accounts/browser.js';
import { driverCheck, formatDriverCheck } from '../../../bin/accounts/driver-check.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { until } from '../../helpers/wait.js';
import { expectedWebAnswer } from '../../../replicas/qwen/expected.js';
import { startQwenReplica } from '../../../replicas/qwen/server.js';

t.setTimeout(240_000);

const M = '/api/business/monitor';
const NOT_YET = /no live crawler node runs it|proxy port serves now|no active proxy port now/;

const replica = await startQwenReplica({ latencyMs: 5 });
t.teardown(() => replica.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  PLATFORM_CHANNELS: 'qwen=web',
  QWEN_WEB_URL: replica.url,
  QWEN_WEB_GAP_MS: '0',
  WEB_GAP_JITTER: '0',
  // The only account: a retry after its wall has no other one to wait for.
  ACCOUNT_WAIT_MS: '1000',
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
});
const user = await svc.newUser('qwen');
const account = await svc.broker.call<AccountView, object>('accounts.import', {
  platform: 'qwen',
  label: 'replica',
  storageState: replica.storageState(),
});

const submit = (prompts: string[], modes: readonly Mode[]) =>
  until(
    'the api to take a Qwen web batch',
    async () => {
      const res = await svc.client.post(
        `${M}/task/batch/shared`,
        {
          prompts,
          platforms: modes.map((mode) => ({
            platform: 'qwen',
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
  errorMessage: string | null;
  pageScreenshot: string | null;
}

async function subTasks(taskId: string): Promise<Sub[]> {
  await untilTaskFinal(svc.client, user.token, taskId, 180_000, 500);
  const res = await svc.client.get(`${M}/task/result/${taskId}`, user.token);
  return res.body.data.subTaskList as Sub[];
}

t.test('the exact fields, the model, the effective mode, a screenshot', async (t) => {
  const prompt = '跨境电商选品';
  // One batch per mode (a batch names each platform once); the one account runs them in turn.
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
});

t.test('driver-check: the fields and the format that answered, the account released', async (t) => {
  const call = <T>(action: string, params: object) =>
    svc.broker.call<T, object>(`accounts.${action}`, params);
  const deps = browserDeps({ call, config: svc.config, log: () => undefined }, false);
  const r = await driverCheck(deps, {
    platform: 'qwen',
    account: 'replica',
    prompt: '露营装备 #replica:old_format',
    mode: 'search',
    outDir: mkdtempSync(join(tmpdir(), 'qwen-driver-check-')),
  });
  t.equal(r.failure, null);
  t.match(r.answer, {
    ...expectedWebAnswer('露营装备 #replica:old_format', 'search', 'qwen-2025'),
    answerSource: 'stream',
  });
  const text = formatDriverCheck(r);
  t.match(text, /effective mode \(what ran\): search\n/);
  t.match(text, /stream format: qwen-2025\nanswer source: stream\n/);
  const view = (await call<AccountView[]>('list', { platform: 'qwen' })).find(
    (a) => a.id === account.id,
  );
  t.match(view, { state: 'healthy', holder: null });
});

t.test('an expired session: the account needs a person within seconds', async (t) => {
  const started = Date.now();
  const taskId = await submit(['保险 #replica:expired'], ['standard']);
  const view = await until(
    'the account to need a person',
    async () => {
      const list = await svc.broker.call<AccountView[], object>('accounts.list', {
        platform: 'qwen',
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
