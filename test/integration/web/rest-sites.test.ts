/**
 * Every consumer site end to end through the REST API on the embedded default
 * (every service in one process, real Chromium), one replica and one account
 * per site (test/helpers/web-sites.ts), imported with the replica's login:
 * - a batch in standard mode and one with thinking and search, each naming
 *   every site: each answer carries the stream's exact fields, the model the
 *   page shows, the mode that ran and a screenshot; both batches at once, so
 *   each account is asked twice together and its pacing holds one live stream;
 * - `driver-check` on each account, as an operator runs it: the answer, the
 *   mode that ran and the stream format that answered, the account released;
 * - an expired session last: every account needs a person within seconds
 *   (`session_expired`), and its sub task fails.
 * A site's own quirks have their own file (yuanbao.test.ts, qwen.test.ts, …).
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
import { fieldsOf, SITES_UNDER_TEST as SITES } from '../../helpers/web-sites.js';

t.setTimeout(300_000);

const M = '/api/business/monitor';
const NOT_YET = /no live crawler node runs it|proxy port serves now|no active proxy port now/;
const envOf = (site: string) => site.toUpperCase().replace(/-/g, '_');

const replicas = new Map(
  await Promise.all(SITES.map(async (s) => [s.name, await s.start('none')] as const)),
);
t.teardown(() => Promise.all([...replicas.values()].map((r) => r.close())));
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  PLATFORM_CHANNELS: SITES.map((s) => `${s.name}=web`).join(','),
  ...Object.fromEntries(
    SITES.flatMap((s) => [
      [`${envOf(s.name)}_WEB_URL`, replicas.get(s.name)!.url],
      [`${envOf(s.name)}_WEB_GAP_MS`, '0'],
    ]),
  ),
  WEB_GAP_JITTER: '0',
  // One account a site: a retry after its wall has no other one to wait for.
  ACCOUNT_WAIT_MS: '1000',
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
});
const user = await svc.newUser('sites');
const accounts = new Map<string, AccountView>();
for (const s of SITES)
  accounts.set(
    s.name,
    await svc.broker.call<AccountView, object>('accounts.import', {
      platform: s.name,
      label: 'replica',
      storageState: replicas.get(s.name)!.storageState(),
    }),
  );

/** One batch: the prompt on every site in one mode (a batch names each platform once). */
const submit = (prompt: string, mode: Mode) =>
  until(
    'the api to take a web batch',
    async () => {
      const res = await svc.client.post(
        `${M}/task/batch/shared`,
        {
          prompts: [prompt],
          platforms: SITES.map((s) => ({ platform: s.name, mode, channel: 'web', screenshot: 1 })),
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
  platform: string;
  prompt: string;
  mode: Mode;
  status: string;
  effectiveMode: Mode | null;
  modelReported: string | null;
  errorMessage: string | null;
  answerContent: string | null;
  referenceList: unknown[];
  citationList: unknown[];
  reasoningProcess: { content: string } | null;
  recommendedQuestions: unknown[];
  pageScreenshot: string | null;
}

async function subTasks(taskId: string): Promise<Sub[]> {
  await untilTaskFinal(svc.client, user.token, taskId, 240_000, 500);
  const res = await svc.client.get(`${M}/task/result/${taskId}`, user.token);
  return res.body.data.subTaskList as Sub[];
}

t.test('every site: the exact fields, the model, the mode that ran, a screenshot', async (t) => {
  const prompt = '公众号运营技巧';
  const modes = ['standard', 'reasoning_search'] as const;
  const taskIds = await Promise.all(modes.map((mode) => submit(prompt, mode)));
  const subs = (await Promise.all(taskIds.map(subTasks))).flat();
  t.equal(subs.length, modes.length * SITES.length);
  for (const sub of subs) {
    const site = SITES.find((s) => s.name === sub.platform)!;
    const url = replicas.get(site.name)!.url;
    const label = `${site.name}, ${sub.mode}`;
    t.equal(sub.status, 'completed', `${label}: ${sub.errorMessage}`);
    t.same(fieldsOf(sub as never), site.expected(prompt, sub.mode, url), `${label}: exact`);
    t.equal(sub.effectiveMode, site.ran?.(prompt, sub.mode, url) ?? sub.mode, `${label}: mode`);
    t.equal(sub.modelReported ?? null, site.model('none', sub.mode), `${label}: the model`);
    t.match(sub.pageScreenshot, /\/screenshot\/[0-9a-f]{32}\.png$/, `${label}: screenshot`);
  }
  // Both batches ran at once, one account a site: a site that refuses a second live stream
  // (ChatGLM's replica counts the refusals) never saw one.
  for (const [name, replica] of replicas)
    if ('refusedBusy' in replica)
      t.equal(replica.refusedBusy, 0, `${name}: no chat call met a live stream of its account`);
});

t.test('driver-check on every account: the answer, the mode, the format, released', async (t) => {
  const call = <T>(action: string, params: object) =>
    svc.broker.call<T, object>(`accounts.${action}`, params);
  const deps = browserDeps({ call, config: svc.config, log: () => undefined }, false);
  const prompt = '露营装备';
  for (const site of SITES) {
    const r = await driverCheck(deps, {
      platform: site.name,
      account: 'replica',
      prompt,
      mode: 'search',
      outDir: mkdtempSync(join(tmpdir(), `${site.name}-driver-check-`)),
    });
    t.equal(r.failure, null, `${site.name}: no failure`);
    const url = replicas.get(site.name)!.url;
    t.same(fieldsOf(r.answer!), site.expected(prompt, 'search', url), `${site.name}: exact`);
    const text = formatDriverCheck(r);
    t.match(text, /effective mode \(what ran\): search\n/, `${site.name}: the mode`);
    t.match(text, /stream format: \S+\nanswer source: stream\n/, `${site.name}: the format`);
    const view = (await call<AccountView[]>('list', { platform: site.name })).find(
      (a) => a.id === accounts.get(site.name)!.id,
    );
    t.match(view, { state: 'healthy', holder: null }, `${site.name}: released`);
  }
});

t.test('an expired session: every account needs a person within seconds', async (t) => {
  const started = Date.now();
  const taskId = await submit('保险 #replica:expired', 'standard');
  const views = await until(
    'every account to need a person',
    async () => {
      const list = (
        await Promise.all(
          SITES.map((s) =>
            svc.broker.call<AccountView[], object>('accounts.list', { platform: s.name }),
          ),
        )
      ).flat();
      const needing = list.filter((a) => a.state === 'needs_human');
      return needing.length === SITES.length ? needing : undefined;
    },
    30_000,
    200,
  );
  t.ok(Date.now() - started < 30_000, `needs_human after ${Date.now() - started} ms`);
  for (const view of views)
    t.match(
      view,
      // The reason in the site's own words (its envelope's message); the kind is the contract.
      { reason: /expired/i, humanKind: 'session_expired' },
      `${view.platform}: the session expired`,
    );
  for (const sub of await subTasks(taskId)) t.equal(sub.status, 'failed', sub.platform);
});
