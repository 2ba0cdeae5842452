/**
 * A real cluster for end-to-end tests: every role in its own child process,
 * talking over the test NATS server, storing in the test MongoDB-wire server,
 * with the sandbox stand-in run by the test so it can count requests.
 */
import mongoose from 'mongoose';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.js';
import { Client } from './http.js';
import { clusterUserToken } from './cluster-user.js';
import { startProcess, type Running } from '../../infra/processes.js';
import { mongoUrl, natsUrl, uniqueDbName } from './servers.js';
import type { TapLike } from './cluster.js';
import type { z } from 'zod';
import { envelopeOf, resultDataSchema } from '../../services/shared/contracts/http.js';
import { untilTaskFinal } from './task-final.js';

export interface ClusterOptions {
  crawlers?: number;
  schedulers?: number;
  crawlerCapacity?: number;
  sandboxLatencyMs?: number;
  env?: Record<string, string>;
  /** Services of the `front` node (default api,tasks,users). */
  frontServices?: string;
  /** Extra environment of crawler node i (from 1), e.g. its proxy ports; `env` is the common one. */
  crawlerEnv?: (i: number, env: Record<string, string>) => Record<string, string>;
}

export interface Cluster {
  client: Client;
  token: string;
  env: Record<string, string>;
  sandbox: SandboxServer;
  nodes: Map<string, Running>;
  startNode(id: string, services: string, extra?: Record<string, string>): Promise<Running>;
  db(): Promise<mongoose.Connection>;
  /** Submits a batch and returns its taskId. */
  submit(body: unknown): Promise<string>;
  /** Waits for the task to be final and returns its full result. */
  finished(taskId: string, timeoutMs?: number): Promise<ResultData>;
}

type ResultData = z.infer<typeof resultDataSchema>;
const M = '/api/business/monitor';

export async function startCluster(t: TapLike, o: ClusterOptions = {}): Promise<Cluster> {
  const sandbox = await startSandboxServer({ latencyMs: o.sandboxLatencyMs ?? 200 });
  const dbName = uniqueDbName(t.name);
  const env: Record<string, string> = {
    MONGO_URL: mongoUrl(),
    MONGO_DB: dbName,
    TRANSPORTER: natsUrl(),
    NAMESPACE: dbName,
    LOG_LEVEL: 'warn',
    SANDBOX_URL: sandbox.url,
    CRAWLER_CAPACITY: String(o.crawlerCapacity ?? 4),
    RETRY_BASE_MS: '200',
    RETRY_MAX_MS: '500',
    LEADER_TTL_MS: '3000',
    ...o.env,
  };
  const nodes = new Map<string, Running>();
  let conn: mongoose.Connection | undefined;
  t.teardown(async () => {
    await Promise.all([...nodes.values()].map((n) => n.stop('SIGKILL')));
    await sandbox.close();
    const c = conn ?? (await mongoose.createConnection(env.MONGO_URL!, { dbName }).asPromise());
    await c.dropDatabase().catch(() => undefined);
    await c.close();
  });

  const startNode = async (id: string, services: string, extra: Record<string, string> = {}) => {
    const node = startProcess('bin/serve.ts', [], {
      ...env,
      SERVICES: services,
      NODE_ID: id,
      PORT: '0',
      ...extra,
    });
    nodes.set(id, node);
    await node.waitFor(new RegExp(`READY node=${id}`), 90_000);
    return node;
  };

  const front = startNode('front', o.frontServices ?? 'api,tasks,users');
  const others: Promise<Running>[] = [];
  for (let i = 1; i <= (o.schedulers ?? 1); i++)
    others.push(startNode(`scheduler-${i}`, 'scheduler'));
  for (let i = 1; i <= (o.crawlers ?? 2); i++)
    others.push(startNode(`crawler-${i}`, 'crawler', o.crawlerEnv?.(i, env)));
  const [, url] = (await front).output().match(/api=(\S+)/)!;
  await Promise.all(others);
  const client = new Client(url!);

  const token = await clusterUserToken(client, env, 'e2e');
  return {
    client,
    token,
    env,
    sandbox,
    nodes,
    startNode,
    async db() {
      conn ??= await mongoose.createConnection(env.MONGO_URL!, { dbName }).asPromise();
      return conn;
    },
    async submit(body) {
      const res = await client.post(`${M}/task/batch/shared`, body, token);
      if (res.status !== 200) throw new Error(res.text);
      return res.body.data.taskId as string;
    },
    async finished(taskId, timeoutMs = 120_000) {
      await untilTaskFinal(client, token, taskId, timeoutMs, 250);
      const res = await client.get(`${M}/task/result/${taskId}`, token);
      return envelopeOf(resultDataSchema).parse(res.body).data;
    },
  };
}
