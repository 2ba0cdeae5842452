/**
 * A cluster for fault tests: every role in its own child process, each of
 * which can be killed and started again under the same node ID (the api on a
 * fixed port, so clients keep their address). Optionally on NATS and
 * MongoDB-wire servers of its own, started by the infra scripts under its own
 * NAME, so a test can restart them on the same port and data. The sandbox
 * stand-in runs in the test process: it outlives every kill and counts the
 * platform requests; a webhook receiver takes the callbacks.
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { rm } from 'node:fs/promises';
import mongoose from 'mongoose';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.js';
import { Client } from './http.js';
import { clusterUserToken } from './cluster-user.js';
import { ROOT, startProcess, type Running } from '../../infra/processes.js';
import { freePort, startReceiver, type Receiver } from '../../bench/webhook-receiver.js';
import { mongoUrl, natsUrl, uniqueDbName } from './servers.js';
import type { TapLike } from './cluster.js';
import { until } from './wait.js';

const run = promisify(execFile);
const M = '/api/business/monitor';

/** NATS and MongoDB-wire servers of one test, restartable on the same port and data. */
export interface OwnServers {
  natsUrl: string;
  mongoUrl: string;
  restartNats(): Promise<void>;
  restartMongo(): Promise<void>;
}

export async function startOwnServers(t: TapLike): Promise<OwnServers> {
  const name = `faults-${randomBytes(3).toString('hex')}`;
  const script = async (which: 'nats' | 'mongo', action: string) =>
    (await run('bash', [`infra/${which}.sh`, action, name], { cwd: ROOT })).stdout.trim();
  // The test's own MongoDB-wire server, whatever TEST_MONGO_URL points at.
  const env = { ...process.env, MONGO_URL: '' };
  const mongo = async (action: string) =>
    (await run('bash', ['infra/mongo.sh', action, name], { cwd: ROOT, env })).stdout.trim();
  const [nats, db] = await Promise.all([script('nats', 'start'), mongo('start')]);
  t.teardown(async () => {
    await Promise.all([script('nats', 'stop'), mongo('stop')]);
    await rm(`${ROOT}var/nats-${name}`, { recursive: true, force: true });
    await rm(`${ROOT}var/mongo-${name}`, { recursive: true, force: true });
  });
  return {
    natsUrl: nats,
    mongoUrl: db,
    async restartNats() {
      if ((await script('nats', 'restart')) !== nats) throw new Error('NATS moved');
    },
    async restartMongo() {
      if ((await mongo('restart')) !== db) throw new Error('the MongoDB-wire server moved');
    },
  };
}

export interface FaultClusterOptions {
  crawlers: number;
  crawlerCapacity: number;
  sandboxLatencyMs: number;
  servers?: OwnServers;
  env?: Record<string, string>;
}

export interface FaultCluster {
  client: Client;
  token: string;
  sandbox: SandboxServer;
  receiver: Receiver;
  nodes: Map<string, Running>;
  /** Starts (or starts again) a node under this ID with these services. */
  start(id: string, services: string): Promise<Running>;
  kill(id: string, signal?: NodeJS.Signals): Promise<void>;
  db(): Promise<mongoose.Connection>;
  /** Submits `n` (at most 50) sandbox sub tasks (prompts `<tag> q<i>`) with a callback; the taskId. */
  submit(tag: string, n: number): Promise<string>;
}

export const FRONT = 'api,tasks,users';

/** Node IDs and services: front, scheduler, callbacks and crawler-1..n. */
export async function startFaultCluster(t: TapLike, o: FaultClusterOptions): Promise<FaultCluster> {
  const sandbox = await startSandboxServer({ latencyMs: o.sandboxLatencyMs });
  const receiver = await startReceiver();
  const dbName = uniqueDbName(t.name);
  const apiPort = await freePort();
  const env: Record<string, string> = {
    MONGO_URL: o.servers?.mongoUrl ?? mongoUrl(),
    MONGO_DB: dbName,
    TRANSPORTER: o.servers?.natsUrl ?? natsUrl(),
    NAMESPACE: dbName,
    LOG_LEVEL: 'warn',
    SANDBOX_URL: sandbox.url,
    CRAWLER_CAPACITY: String(o.crawlerCapacity),
    RETRY_BASE_MS: '200',
    RETRY_MAX_MS: '500',
    LEADER_TTL_MS: '3000',
    LEASE_MS: '10000',
    CALLBACK_ALLOW_CIDRS: '127.0.0.0/8',
    CALLBACK_POLL_MS: '200',
    CALLBACK_RETRY_DELAYS_MS: '500,500,500,500,500,500,500',
    CALLBACK_CONNECT_TIMEOUT_MS: '2000',
    CALLBACK_READ_TIMEOUT_MS: '5000',
    RATE_LIMIT_RPS: '1000',
    RATE_LIMIT_BURST: '1000',
    ...o.env,
  };
  const nodes = new Map<string, Running>();
  let conn: mongoose.Connection | undefined;
  t.teardown(async () => {
    await Promise.all([...nodes.values()].map((n) => n.stop('SIGKILL')));
    await Promise.all([sandbox.close(), receiver.close()]);
    const c = conn ?? (await mongoose.createConnection(env.MONGO_URL!, { dbName }).asPromise());
    await c.dropDatabase().catch(() => undefined);
    await c.close();
  });

  const services = new Map<string, string>();
  const start = async (id: string, svc: string) => {
    services.set(id, svc);
    const node = startProcess('bin/serve.ts', [], {
      ...env,
      SERVICES: svc,
      NODE_ID: id,
      PORT: svc.includes('api') ? String(apiPort) : '0',
    });
    nodes.set(id, node);
    await node.waitFor(new RegExp(`READY node=${id}`), 90_000);
    return node;
  };

  await start('front', FRONT);
  const others = [start('scheduler', 'scheduler'), start('callbacks', 'callbacks')];
  for (let i = 1; i <= o.crawlers; i++) others.push(start(`crawler-${i}`, 'crawler'));
  await Promise.all(others);
  const client = new Client(`http://127.0.0.1:${apiPort}`);

  const token = await clusterUserToken(client, env, 'faults');

  return {
    client,
    token,
    sandbox,
    receiver,
    nodes,
    start,
    async kill(id, signal = 'SIGKILL') {
      await nodes.get(id)!.stop(signal);
    },
    async db() {
      conn ??= await mongoose.createConnection(env.MONGO_URL!, { dbName }).asPromise();
      return conn;
    },
    async submit(tag, n) {
      const body = {
        prompts: Array.from({ length: n }, (_, i) => `${tag} q${i}`),
        platforms: [{ platform: 'sandbox', mode: 'standard' }],
        callbackUrl: receiver.plan(`/${tag}`, []),
      };
      // The api may be restarting: a refused connection is tried again.
      const res = await until('the batch to be accepted', async () =>
        client.post(`${M}/task/batch/shared`, body, token).catch(() => undefined),
      );
      if (res.status !== 200) throw new Error(res.text);
      return res.body.data.taskId as string;
    },
  };
}

/** Resolves once `count` sub tasks of the task are final (read from the database). */
export async function finalCount(c: FaultCluster, taskId: string, count: number): Promise<void> {
  const conn = await c.db();
  await until(
    `${count} final sub tasks of ${taskId}`,
    async () =>
      (await conn
        .collection('subtasks')
        .countDocuments({ taskId, status: { $nin: ['pending', 'processing'] } })) >= count,
    180_000,
    100,
  );
}
