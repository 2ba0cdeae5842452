/**
 * Brings the benchmark's cluster up: an api/tasks/users node, a scheduler node
 * and the API crawler nodes, all pointed at the shared sandbox; a probe broker
 * that sees them; a user with an API key and an access token.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import type { ServiceBroker } from 'moleculer';
import { runProcess } from '../../infra/processes.js';
import { request } from '../common.js';
import type { Cluster, Node } from './cluster.js';
import type { PipelineOptions } from './options.js';
import { PATHS } from '../../services/shared/contracts/http-paths.js';

export interface Started {
  probe: ServiceBroker;
  /** The api's base URL and an access token for it. */
  base: string;
  token: string;
  scheduler: Node;
  crawlers: Node[];
  /** What every node's environment adds to the cluster's (the sandbox's URL). */
  env: Record<string, string>;
}

/** The benchmark's own connection to the cluster's database, and what the server says it is. */
export async function openDatabase(o: Pick<PipelineOptions, 'mongoUrl'>, cluster: Cluster) {
  const db = await mongoose
    .createConnection(o.mongoUrl, {
      dbName: cluster.env.MONGO_DB,
      serverSelectionTimeoutMS: 10_000,
    })
    .asPromise();
  const info = await db.db!.admin().command({ buildInfo: 1 });
  const server =
    'ferretdbVersion' in info
      ? `FerretDB (MongoDB ${String(info.version)} wire)`
      : `MongoDB-wire server reporting version ${String(info.version)}`;
  return { db, server };
}

export async function startCluster(
  o: PipelineOptions,
  cluster: Cluster,
  db: mongoose.Connection,
  sandboxUrl: string,
  /** Told of the probe broker as soon as it runs, so that a failed start still stops it. */
  onProbe: (probe: ServiceBroker) => void,
): Promise<Started> {
  const env = { SANDBOX_URL: sandboxUrl };
  const front = cluster.start('api', { ...env, SERVICES: 'api,tasks,users', PORT: '0' });
  const scheduler = cluster.start('scheduler', { ...env, SERVICES: 'scheduler' });
  const crawlerEnv = {
    ...env,
    SERVICES: 'crawler',
    CRAWLER_CAPACITY: String(o.capacity),
    CRAWLER_CHANNELS: 'api',
    CRAWLER_PREFETCH: String(o.prefetch),
  };
  const crawlers = Array.from({ length: o.nodes }, (_, i) =>
    cluster.start(`crawler${i + 1}`, crawlerEnv),
  );
  // The operator CLI runs its own users service on the database: no need to wait for the nodes.
  const apiKey = createUser(cluster);
  // Awaited below; a start that fails first must not leave it an unhandled rejection.
  apiKey.catch(() => undefined);
  const base = await cluster.ready(front);
  if (!base) throw new Error('the api node announced no URL');
  await Promise.all([scheduler, ...crawlers].map((n) => cluster.ready(n)));

  const probe = await cluster.probe();
  onProbe(probe);
  await cluster.discovered(
    probe,
    cluster.nodes.map((n) => n.nodeId),
  );
  await checkLeader(db, scheduler);
  const token = await accessToken(base, await apiKey);
  // Let every node's registry settle (the scheduler sees the crawler nodes' metadata).
  await sleep(1000);
  return { probe, base, token, scheduler, crawlers, env };
}

/** The scheduler holds the leader lock (it takes it in its `started`). */
async function checkLeader(db: mongoose.Connection, scheduler: Node): Promise<void> {
  const lock = await db.collection('locks').findOne({ _id: 'scheduler' } as never);
  if (lock?.owner !== scheduler.nodeId) throw new Error(`no active scheduler: ${String(lock)}`);
}

export async function createUser(cluster: Cluster): Promise<string> {
  const created = await runProcess(
    'bin/admin.ts',
    ['create-user', '--name', 'bench', '--json'],
    cluster.env,
  );
  if (created.code !== 0) throw new Error(`create-user failed: ${created.output}`);
  return (JSON.parse(created.output.trim()) as { apiKey: string }).apiKey;
}

export async function accessToken(base: string, apiKey: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const r = await request(base, 'POST', PATHS.AUTH_TOKEN, undefined, { apiKey });
    if (r.status === 200) return r.body.data.accessToken as string;
    await sleep(100);
  }
  throw new Error('no access token');
}
