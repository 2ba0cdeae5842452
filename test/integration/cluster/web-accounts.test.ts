/**
 * Web-channel scheduling over NATS with the real accounts service: web sub
 * tasks run only as usable accounts, each on the crawler node that serves the
 * account's proxy port; an account never runs two sub tasks at once; a retry
 * after a login wall uses another account; a region without an account in
 * working order is refused at submission, and one whose only account stays
 * busy fails after ACCOUNT_WAIT_MS naming platform, region and the accounts'
 * states. The crawler nodes are stand-ins that take every lease, hold its
 * account for a moment, give it back and report (the browser work has its own
 * tests).
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import type { ServiceBroker } from 'moleculer';
import { startEmbedded } from '../../helpers/cluster.js';
import { natsUrl } from '../../helpers/servers.js';
import { portHealth } from '../../helpers/crawler-ports.js';
import { plainResult } from '../../helpers/results.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { startWebStandIn } from '../../helpers/web-crawler-stand-in.js';
import { addDeepseekAccount } from '../../helpers/deepseek-account.js';
import { until } from '../../helpers/wait.js';
import type { LeaseMessage } from '../../../services/shared/contracts/lease.js';
import type {
  AccountVerdict,
  ReleaseRequest,
} from '../../../services/shared/contracts/accounts.js';
import type { SettleRequest } from '../../../services/shared/contracts/report.js';

const SH = '310100';
const BJ = '110100';
const GZ = '440100';
const ACCOUNT_WAIT_MS = 3_000;
const RUN_MS = 150;
const M = '/api/business/monitor';
const namespace = `webaccounts${process.pid}`;

const svc = await startEmbedded(t, {
  SERVICES: 'api,tasks,users,scheduler,proxies,accounts',
  TRANSPORTER: natsUrl(),
  NAMESPACE: namespace,
  PLATFORM_CHANNELS: 'deepseek=web',
  ACCOUNTS_KEY: randomBytes(32).toString('hex'),
  ACCOUNT_WAIT_MS: String(ACCOUNT_WAIT_MS),
  DEEPSEEK_WEB_GAP_MS: '0',
  WEB_GAP_JITTER: '0',
  PROXY_RESYNC_MS: '300',
});

const where = (province: string, city: string, code: string) => ({
  province,
  city,
  regionCode: [`${code.slice(0, 2)}0000`, code],
});
const shPort = portHealth('127.0.0.1', 9101, where('上海市', '上海市', SH), true);
const bjPort = portHealth('127.0.0.1', 9102, where('北京市', '北京市', BJ), true);
const gzPort = portHealth('127.0.0.1', 9103, where('广东省', '广州市', GZ), true);

/** Account id → the sub task running on it, across both nodes. */
const running = new Map<string, string>();
const overlaps: string[] = [];
/** Sub tasks whose first attempt meets a login wall. */
const walled = new Set<string>();

async function run(lease: LeaseMessage, broker: ServiceBroker, node: string): Promise<void> {
  const account = lease.account;
  if (!account) throw new Error(`web lease ${lease.subTaskId} without an account`);
  const other = running.get(account.id);
  if (other !== undefined) overlaps.push(`${account.id}: ${other} and ${lease.subTaskId}`);
  running.set(account.id, lease.subTaskId);
  await new Promise((r) => setTimeout(r, RUN_MS));
  running.delete(account.id);
  const wall = lease.prompt.includes('login wall') && !walled.has(lease.subTaskId);
  if (wall) walled.add(lease.subTaskId);
  const verdict: AccountVerdict = wall
    ? { state: 'needs_human', reason: 'login wall' }
    : { state: 'healthy' };
  await broker.call<unknown, ReleaseRequest>('accounts.release', {
    id: account.id,
    holder: `${lease.subTaskId} ${lease.token}`,
    verdict,
    prompted: !wall,
  });
  await broker.call<unknown, SettleRequest>('tasks.settleBatch', {
    reports: [
      {
        subTaskId: lease.subTaskId,
        taskId: lease.taskId,
        token: lease.token,
        attempt: lease.attempt,
        ...(wall
          ? {
              failure: {
                status: 'failed',
                retryable: true,
                message: `deepseek: login wall on ${node}`,
              },
            }
          : { result: plainResult }),
        proxyKey: account.proxyKey,
        accountId: account.id,
      },
    ],
  });
}

const nodes = await Promise.all(
  [
    { nodeID: 'web-sh', ports: [shPort, gzPort] },
    { nodeID: 'web-bj', ports: [bjPort] },
  ].map((n) =>
    startWebStandIn(t, {
      transporter: natsUrl(),
      namespace,
      platforms: ['deepseek'],
      capacity: 3,
      ...n,
      run: (lease, broker) => run(lease, broker, n.nodeID),
    }),
  ),
);
const [shNode, bjNode] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];

const addAccount = (label: string, regionCode: string) =>
  addDeepseekAccount(svc.broker, label, regionCode);
const shA = await addAccount('sh-a', SH);
const shB = await addAccount('sh-b', SH);
const bjA = await addAccount('bj-a', BJ);
const gzA = await addAccount('gz-a', GZ);
await svc.broker.call('accounts.setState', { id: gzA, state: 'disabled' });

const user = await svc.newUser('web');
// The api refuses a region until the city lookup knows an active port of it.
await until('the regions to be active', async () => {
  const res = await svc.client.get('/api/business/eip-edge/ports/city-info');
  const records = res.body.data as { regionCode: string[]; active: boolean }[];
  const codes = new Set(records.filter((r) => r.active).flatMap((r) => r.regionCode));
  return [SH, BJ, GZ].every((c) => codes.has(c)) ? true : undefined;
});
/**
 * Submits once the api takes the region: on a busy machine a stand-in node can
 * miss a heartbeat, and its ports read inactive until it is heard again.
 */
const submit = (prompts: string[], regionCode: string) =>
  until(
    `a task in ${regionCode} to be taken`,
    async () => {
      const res = await svc.client.post(
        `${M}/task/batch/shared`,
        {
          prompts,
          platforms: [{ platform: 'deepseek', mode: 'standard' }],
          regionCode: [regionCode],
        },
        user.token,
      );
      if (res.status === 200) return res.body.data.taskId as string;
      if (res.status === 400 && /no active proxy port/.test(res.text)) return undefined;
      throw new Error(`submit: ${res.status} ${res.text}`);
    },
    20_000,
  );
const subTasks = async (taskId: string) =>
  (await svc.db()).collection('subtasks').find({ taskId }).sort({ seq: 1 }).toArray();

t.test(
  'each region runs as its own accounts, on the node of their port, one at a time',
  async (t) => {
    const sh = await submit(['sh one', 'sh two', 'sh three', 'sh four', 'sh five'], SH);
    const bj = await submit(['bj one', 'bj two', 'bj three'], BJ);
    for (const taskId of [sh, bj]) {
      const final = await untilTaskFinal(svc.client, user.token, taskId, 60_000, 100);
      t.equal(final.body.data.status, 'completed', `task ${taskId} completed`);
    }
    t.strictSame(overlaps, [], 'no account ran two sub tasks at once');
    const shLeases = shNode.leases.filter((l) => l.taskId === sh);
    const bjLeases = bjNode.leases.filter((l) => l.taskId === bj);
    t.equal(shLeases.length, 5, 'every Shanghai sub task on the Shanghai node');
    t.equal(bjLeases.length, 3, 'every Beijing sub task on the Beijing node');
    t.ok(
      shLeases.every(
        (l) => [shA, shB].includes(l.account!.id) && l.account!.proxyKey === shPort.key,
      ),
      'Shanghai accounts, pinned to the Shanghai port',
    );
    t.ok(
      bjLeases.every((l) => l.account!.id === bjA && l.account!.proxyKey === bjPort.key),
      'the Beijing account, pinned to the Beijing port',
    );
    t.strictSame(
      (await subTasks(bj)).map((s) => s.lastAccount),
      [bjA, bjA, bjA],
      'each sub task records its account',
    );
  },
);

t.test('a retry after a login wall runs as another account', async (t) => {
  const taskId = await submit(['behind a login wall'], SH);
  const final = await untilTaskFinal(svc.client, user.token, taskId, 60_000, 100);
  t.equal(final.body.data.status, 'completed');
  const leases = shNode.leases.filter((l) => l.taskId === taskId);
  t.equal(leases.length, 2, 'two attempts');
  const [first, second] = leases.map((l) => l.account!.id);
  t.not(second, first, 'the retry used the other account');
  const [sub] = await subTasks(taskId);
  t.equal(sub!.lastAccount, second);
  const list = await svc.broker.call<{ id: string; state: string }[], object>('accounts.list', {
    platform: 'deepseek',
  });
  t.equal(list.find((a) => a.id === first)!.state, 'needs_human');
});

t.test('no account in working order in the region: refused at once, naming it', async (t) => {
  const message = await until(
    `a task in ${GZ} to be refused`,
    async () => {
      const res = await svc.client.post(
        `${M}/task/batch/shared`,
        {
          prompts: ['nobody to ask'],
          platforms: [{ platform: 'deepseek', mode: 'standard' }],
          regionCode: [GZ],
        },
        user.token,
      );
      if (res.status === 400 && /no active proxy port/.test(res.text)) return undefined;
      return res.status === 400 ? (res.body.errors[0].message as string) : res.text;
    },
    20_000,
  );
  t.match(
    message,
    new RegExp(
      `^deepseek is unavailable on the web channel: no usable account in region ${GZ} \\(usable ones: (${SH}, ${BJ}|${BJ}, ${SH})\\)`,
    ),
    'its one account is disabled',
  );
});

t.test(
  'an account busy for longer than the wait: the sub task waits, then fails saying so',
  async (t) => {
    await svc.broker.call('accounts.setState', { id: gzA, state: 'healthy' });
    await svc.broker.call('accounts.hold', { id: gzA, holder: 'an operator check' });
    const started = Date.now();
    const taskId = await submit(['nobody to ask'], GZ);
    const final = await untilTaskFinal(svc.client, user.token, taskId, 30_000, 100);
    t.equal(final.body.data.status, 'failed');
    t.ok(Date.now() - started >= ACCOUNT_WAIT_MS, 'not before the wait');
    const [sub] = await subTasks(taskId);
    t.equal(sub!.status, 'failed');
    t.equal(
      sub!.errorMessage,
      `no usable deepseek web account in region ${GZ} (1 account: 1 in use)`,
    );
    t.equal(shNode.leases.filter((l) => l.taskId === taskId).length, 0, 'never leased');
  },
);
