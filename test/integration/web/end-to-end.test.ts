/**
 * One batch per region over NATS, every role in its own process, mixing
 * DeepSeek's two channels: the API one answered by the vendor stand-in, the
 * web one by the replica of chat.deepseek.com in real Chromium. Two accounts,
 * imported with the operator CLI, one per region, each pinned to its region's
 * proxy port (real forward proxies on loopback leaving from 127.0.0.2 and
 * 127.0.0.3, so the replica sees the exit of every request). The replica tells
 * the two sessions apart, so the test sees which account sent each chat call,
 * from where and when: each account only ever from its own exit, and never
 * two chat calls of one account at once, though each region has several web
 * sub tasks and its node room for four.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proxyKey } from '../../../services/shared/proxy-config.js';
import type { Mode } from '../../../services/shared/platforms.js';
import type { StorageState } from '../../../services/shared/contracts/accounts.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { startCluster } from '../../helpers/cluster-processes.js';
import { clusterUserToken } from '../../helpers/cluster-user.js';
import { startForwardProxy, type ForwardProxy } from '../../helpers/forward-proxy.js';
import { runProcess } from '../../../infra/processes.js';
import { until } from '../../helpers/wait.js';
import { startPlatformStandin, standinEnv } from '../../standins/index.js';
import { expectedAnswer } from '../../standins/expected.js';
import { startDeepseekReplica } from '../../../replicas/deepseek/server.js';
import { expectedWebAnswer } from '../../../replicas/deepseek/expected.js';
import { chatFrames } from '../../../replicas/deepseek/frames.js';
import type { Seen } from '../../../replicas/common/site.js';

const M = '/api/business/monitor';
const COMPLETION = '/api/v0/chat/completion';
const NOT_YET = /no live crawler node runs it|proxy port serves now|no active proxy port now/;

interface Region {
  code: string;
  exit: string;
  node: string;
  label: string;
  mode: Mode;
  prompts: string[];
}
const REGIONS: Region[] = [
  {
    code: '310100',
    exit: '127.0.0.2',
    node: 'crawler-1',
    label: 'sh-account',
    mode: 'reasoning',
    prompts: ['上海 国产 CRM 哪家强', '上海 SaaS 选型', '上海 客服系统推荐'],
  },
  {
    code: '110100',
    exit: '127.0.0.3',
    node: 'crawler-2',
    label: 'bj-account',
    mode: 'standard',
    prompts: ['北京 国产 CRM 哪家强', '北京 ERP 选型', '北京 协同办公推荐'],
  },
];

// Four node processes, three CLI runs and two Chromiums: minutes on a busy 2-core machine.
t.setTimeout(420_000);

const replica = await startDeepseekReplica({ latencyMs: 40 });
t.teardown(() => replica.close());
const api = await startPlatformStandin('deepseek');
t.teardown(() => api.server.close());
const exits: ForwardProxy[] = await Promise.all(REGIONS.map((r) => startForwardProxy(r.exit)));
t.teardown(() => Promise.all(exits.map((p) => p.stop().catch(() => undefined))));
const portOf = (i: number) => proxyKey(exits[i]!.url);

const c = await startCluster(t, {
  crawlers: 2,
  crawlerCapacity: 4,
  frontServices: 'api,tasks,users,proxies,accounts',
  env: {
    ...standinEnv(new Map([['deepseek', api]])),
    DEEPSEEK_WEB_URL: replica.url,
    // No pacing gap: only the account's own exclusivity keeps its sub tasks apart.
    DEEPSEEK_WEB_GAP_MS: '0',
    WEB_GAP_JITTER: '0',
    ACCOUNTS_KEY: randomBytes(32).toString('base64'),
    PROXY_CHECK_MS: '300',
    PROXY_RESYNC_MS: '1000',
  },
  crawlerEnv: (i, env) => {
    const r = REGIONS[i - 1]!;
    const exit = exits[i - 1]!;
    return {
      CRAWLER_PROXIES: JSON.stringify([
        { port: exit.port, url: exit.url, regionCode: r.code, outIp: r.exit },
      ]),
      PROXY_CHECK_URL: `${env.SANDBOX_URL}/ip`,
    };
  },
});

/** Runs the operator CLI against the cluster's database and returns its JSON answer. */
async function admin<T>(...args: string[]): Promise<T> {
  const { code, output } = await runProcess('bin/admin.ts', [...args, '--json'], c.env);
  if (code !== 0) throw new Error(`admin ${args.join(' ')}: ${output}`);
  return JSON.parse(output.trim().split('\n').pop()!) as T;
}

interface AccountView {
  id: string;
  label: string;
  regionCode: string | null;
  proxyKey: string | null;
  state: string;
  holder: string | null;
  lastUsedAt: number | null;
}

/** The replica's session token in a storage state (DeepSeek keeps it in local storage). */
const sessionOf = (state: StorageState) =>
  (
    JSON.parse(state.origins[0]!.localStorage.find((e) => e.name === 'userToken')!.value) as {
      value: string;
    }
  ).value;
/** The answer's record fields, without what only one side has. */
const answerFields = (
  a: Omit<Answer, 'answerContent' | 'modelReported'> & {
    answerContent: string | null;
    modelReported?: string | null;
  },
) => ({
  answerContent: a.answerContent,
  modelReported: a.modelReported ?? null,
  referenceList: a.referenceList,
  citationList: a.citationList,
  reasoningProcess: a.reasoningProcess,
  recommendedQuestions: a.recommendedQuestions,
  mediaContent: a.mediaContent,
});
const bearerOf = (seen: Seen) => /^Bearer (.+)$/.exec(seen.headers.authorization ?? '')?.[1];
const remoteOf = (seen: Seen) => seen.remote?.replace(/^::ffff:/, '');

const dir = await mkdtemp(join(tmpdir(), 'e2e-accounts-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const accounts = await Promise.all(
  REGIONS.map(async (r) => {
    const state = replica.storageState(r.label);
    const file = join(dir, `${r.label}.json`);
    await writeFile(file, JSON.stringify(state));
    const view = await admin<AccountView>(
      'account',
      'import',
      '--platform',
      'deepseek',
      '--label',
      r.label,
      '--region',
      r.code,
      '--file',
      file,
    );
    return { ...r, id: view.id, session: sessionOf(state) };
  }),
);

/** Submits once the api takes the region and both channels (nodes and ports heard). */
const submit = (r: Region) =>
  until(
    `a task in ${r.code} to be taken`,
    async () => {
      const res = await c.client.post(
        `${M}/task/batch/shared`,
        {
          prompts: r.prompts,
          platforms: [
            { platform: 'deepseek', mode: r.mode, channel: 'api' },
            { platform: 'deepseek', mode: r.mode, channel: 'web', screenshot: 1 },
          ],
          regionCode: [r.code],
        },
        c.token,
      );
      if (res.status === 200) return res.body.data.taskId as string;
      // Until the nodes' adverts and port checks reach the api, it refuses the pair or region.
      if (res.status === 400 && NOT_YET.test(res.text)) return undefined;
      throw new Error(`submit: ${res.status} ${res.text}`);
    },
    90_000,
    500,
  );

t.test(
  'API and web answers side by side, each account on its own exit, one at a time',
  async (t) => {
    t.not(
      accounts[0]!.session,
      accounts[1]!.session,
      'the replica gives each account its own session',
    );
    const started = Date.now();
    const taskIds = await Promise.all(REGIONS.map(submit));
    const results = await Promise.all(taskIds.map((id) => c.finished(id, 240_000)));
    t.comment(`both batches final after ${Date.now() - started} ms`);
    const subtasks = (await c.db()).collection('subtasks');

    for (const [i, result] of results.entries()) {
      const region = accounts[i]!;
      t.equal(result.status, 'completed', `${region.code}: completed`);
      t.equal(
        result.subTaskList.length,
        region.prompts.length * 2,
        'one sub task per prompt and channel',
      );
      for (const sub of result.subTaskList) {
        const label = `${region.code} ${sub.channel} ${sub.prompt}`;
        t.equal(sub.status, 'completed', `${label}: ${sub.errorMessage}`);
        t.match(
          sub,
          { platform: 'deepseek', mode: region.mode, effectiveMode: region.mode },
          label,
        );
        t.equal(sub.proxyIp, region.exit, `${label}: through its region's exit`);
        const doc = await subtasks.findOne({ _id: sub.subTaskId as never });
        t.equal(doc!.lastNode, region.node, `${label}: on the node of its region`);
        const fields = answerFields(sub);
        if (sub.channel === 'api') {
          t.same(
            fields,
            answerFields(expectedAnswer('deepseek', region.mode, sub.prompt)),
            `${label}: the API's, with the model it reported`,
          );
          t.equal(sub.rawEvidence, null, `${label}: no captured stream`);
          continue;
        }
        t.equal(sub.channel, 'web', label);
        t.same(
          fields,
          answerFields(expectedWebAnswer(sub.prompt, region.mode, replica.url)),
          `${label}: the site's`,
        );
        t.equal(doc!.lastAccount, region.id, `${label}: as the region's account`);
        t.match(sub.pageScreenshot, /\/screenshot\/[0-9a-f]{32}\.png$/, `${label}: screenshot`);
      }
      const apiSeen = api.server.requests.filter((q) =>
        region.prompts.some((p) => JSON.stringify(q).includes(p)),
      );
      t.equal(apiSeen.length, region.prompts.length, `${region.code}: one API call per prompt`);
      t.same(
        [...new Set(apiSeen.map((q) => q.remoteAddress.replace(/^::ffff:/, '')))],
        [region.exit],
        `${region.code}: the API calls left through the region's exit`,
      );
    }

    const seen = replica.site.seen;
    t.same(
      [...new Set(seen.map(remoteOf))].sort(),
      REGIONS.map((r) => r.exit).sort(),
      'every request to the site came through a regional exit',
    );
    for (const account of accounts) {
      const own = seen.filter((s) => bearerOf(s) === account.session);
      t.same(
        [...new Set(own.map(remoteOf))],
        [account.exit],
        `${account.label}: only from its exit`,
      );
      const chats = own.filter((s) => s.method === 'POST' && s.path === COMPLETION);
      t.equal(chats.length, account.prompts.length, `${account.label}: one chat call per sub task`);
      const overlaps = chats
        .sort((a, b) => a.at - b.at)
        .flatMap((s, k) => {
          const next = chats[k + 1];
          return next && next.at < s.at + s.ms! ? [`${s.at}+${s.ms} and ${next.at}`] : [];
        });
      t.ok(
        chats.every((s) => s.ms !== undefined),
        `${account.label}: every chat call finished`,
      );
      t.same(overlaps, [], `${account.label}: never two chat calls at once`);
    }
    const strangers = seen.filter(
      (s) => bearerOf(s) !== undefined && !accounts.some((a) => a.session === bearerOf(s)),
    );
    t.same(strangers, [], 'no other session reached the site');

    const stored = JSON.stringify(await (await c.db()).collection('accounts').find().toArray());
    for (const account of accounts)
      t.notOk(stored.includes(account.session), `${account.label}: its session sealed at rest`);

    const list = await admin<AccountView[]>('account', 'list', '--platform', 'deepseek');
    for (const [i, account] of accounts.entries()) {
      t.match(
        list.find((a) => a.id === account.id),
        {
          label: account.label,
          regionCode: account.code,
          proxyKey: portOf(i),
          state: 'healthy',
          holder: null,
          lastUsedAt: Number,
        },
        `${account.label}: healthy, free, pinned to its region's port`,
      );
    }

    const stranger = await clusterUserToken(c.client, c.env, 'stranger');
    for (const [i, result] of results.entries()) {
      const region = accounts[i]!;
      for (const sub of result.subTaskList.filter((s) => s.channel === 'web')) {
        const path = new URL(sub.rawEvidence!).pathname;
        t.equal(path, `${M}/task/result/${taskIds[i]}/${sub.subTaskId}/raw`);
        const own = await c.client.get(path, c.token);
        t.equal(own.status, 200, `${sub.prompt}: evidence to its owner`);
        t.match(own.headers.get('content-type'), /application\/x-ndjson/);
        const lines = own.text
          .trim()
          .split('\n')
          .map(
            (l) => JSON.parse(l) as { kind: string; url?: string; body?: string; data?: string },
          );
        const request = lines.find((l) => l.kind === 'request' && l.url?.endsWith(COMPLETION));
        const sent = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
        t.match(
          sent,
          {
            prompt: sub.prompt,
            thinking_enabled: region.mode === 'reasoning',
            search_enabled: false,
          },
          `${sub.prompt}: the chat call the page sent`,
        );
        const flags = { thinking_enabled: region.mode === 'reasoning', search_enabled: false };
        t.same(
          lines.filter((l) => l.kind === 'frame').map((l) => l.data),
          chatFrames(sub.prompt, region.mode, flags, '2026', replica.url).map((f) => f.trimEnd()),
          `${sub.prompt}: every frame the site sent`,
        );
        t.equal((await c.client.get(path, stranger)).status, 404, `${sub.prompt}: to no one else`);
      }
    }
  },
);
