/**
 * Yiyan end to end on the embedded default (every service in one process,
 * real Chromium): one account imported with the replica's login runs a
 * REST batch in standard mode (文心4.5 Turbo) and one with thinking and
 * search (文心X1 Turbo), each answer with the stream's exact fields, the model
 * the page's picker names, the effective mode and a screenshot; the
 * operator's `driver-check` then runs one search through the same account
 * and prints it; a slider verification finally fails its sub task within
 * seconds and leaves the account needing a person.
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
import { expectedWebAnswer } from '../../../replicas/wenxin/expected.js';
import { startWenxinReplica } from '../../../replicas/wenxin/server.js';

t.setTimeout(240_000);

const M = '/api/business/monitor';
const NOT_YET = /no live crawler node runs it|proxy port serves now|no active proxy port now/;

const replica = await startWenxinReplica({ latencyMs: 5 });
t.teardown(() => replica.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  PLATFORM_CHANNELS: 'wenxin=web',
  WENXIN_WEB_URL: replica.url,
  WENXIN_WEB_GAP_MS: '0',
  WEB_GAP_JITTER: '0',
  // The only account: a retry after its wall has no other one to wait for.
  ACCOUNT_WAIT_MS: '1000',
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
});
const user = await svc.newUser('wenxin');
const account = await svc.broker.call<AccountView, object>('accounts.import', {
  platform: 'wenxin',
  label: 'replica',
  storageState: replica.storageState(),
});

const submit = (prompt: string, mode: Mode) =>
  until(
    'the api to take a Yiyan web batch',
    async () => {
      const res = await svc.client.post(
        `${M}/task/batch/shared`,
        {
          prompts: [prompt],
          platforms: [{ platform: 'wenxin', mode, channel: 'web', screenshot: 1 }],
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

t.test(
  'through the REST API: the exact fields, the model label, the mode, a screenshot',
  async (t) => {
    const prompt = '百度百科的编辑规则';
    const modes = ['standard', 'reasoning_search'] as const;
    const taskIds = await Promise.all(modes.map((mode) => submit(prompt, mode)));
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
  },
);

t.test(
  'driver-check: one search as the operator runs it, the account released healthy',
  async (t) => {
    const deps = browserDeps(
      {
        call: <T>(action: string, params: object) =>
          svc.broker.call<T, object>(`accounts.${action}`, params),
        config: svc.config,
        log: () => undefined,
      },
      false,
    );
    const prompt = '百家号的推荐机制';
    const r = await driverCheck(deps, {
      platform: 'wenxin',
      account: 'replica',
      prompt,
      mode: 'search',
      outDir: mkdtempSync(join(tmpdir(), 'wenxin-check-')),
    });
    t.equal(r.failure, null);
    t.match(r.answer, { ...expectedWebAnswer(prompt, 'search'), formatVersion: 'yiyan-2026' });
    const text = formatDriverCheck(r);
    t.match(text, /effective mode \(what ran\): search\n/);
    t.match(text, /stream format: yiyan-2026\nanswer source: stream\n/);
    const list = await svc.broker.call<AccountView[], object>('accounts.list', {
      platform: 'wenxin',
    });
    t.match(
      list.find((a) => a.id === account.id),
      { state: 'healthy', holder: null },
    );
  },
);

t.test('a slider verification: the account needs a person within seconds', async (t) => {
  const started = Date.now();
  const taskId = await submit('保险 #replica:captcha', 'standard');
  const view = await until(
    'the account to need a person',
    async () => {
      const list = await svc.broker.call<AccountView[], object>('accounts.list', {
        platform: 'wenxin',
      });
      return list.find((a) => a.id === account.id && a.state === 'needs_human');
    },
    20_000,
    200,
  );
  t.ok(Date.now() - started < 20_000, `needs_human after ${Date.now() - started} ms`);
  t.match(view, { reason: /captcha: /, humanKind: 'verification' });
  const [sub] = await subTasks(taskId);
  t.equal(sub!.status, 'failed');
});
