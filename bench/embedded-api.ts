/**
 * What the API benchmarks (exports, evidence bundles, MCP) share: the api,
 * tasks and users services in this process on BENCH_MONGO_URL, as the
 * embedded default runs them (more with `env`), a user with a token, and a
 * client that counts the bytes it downloads, keeps none, and samples the
 * process's peak RSS.
 */
import mongoose from 'mongoose';
import type { ServiceBroker } from 'moleculer';
import { createBroker } from '../services/index.js';
import { loadConfig } from '../services/shared/config.js';

export interface BenchApi {
  base: string;
  broker: ServiceBroker;
  conn: mongoose.Connection;
  userId: number;
  token: string;
  /** Drops the benchmark's database and stops the services. */
  stop(): Promise<void>;
}

/** `env`: settings over these defaults (SERVICES: 'all' runs sub tasks on the sandboxes too). */
export async function startBenchApi(
  mongoUrl: string,
  name: string,
  env: Record<string, string> = {},
): Promise<BenchApi> {
  const config = loadConfig({
    MONGO_URL: mongoUrl,
    MONGO_DB: `bench_${name}_${Date.now()}`,
    PORT: '0',
    LOG_LEVEL: 'warn',
    SERVICES: 'api,tasks,users',
    RATE_LIMIT_RPS: '100000',
    RATE_LIMIT_BURST: '100000',
    ...env,
  });
  const broker = await createBroker(config, config.services);
  await broker.start();
  const conn = await mongoose
    .createConnection(config.mongoUrl, { dbName: config.mongoDb })
    .asPromise();
  const base = `http://127.0.0.1:${broker.getLocalService('api')!.settings.port as number}`;
  const stop = async () => {
    // The broker first: a timer of a running service must not meet a dropped collection.
    await broker.stop();
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
  };
  try {
    const user = await broker.call<{ userId: number }, object>('users.createUser', { name });
    const key = await broker.call<{ apiKey: string }, object>('users.createApiKey', {
      userId: user.userId,
    });
    const tokenRes = await fetch(`${base}/api/business/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: key.apiKey }),
    });
    const token = ((await tokenRes.json()) as { data: { accessToken: string } }).data.accessToken;
    return { base, broker, conn, userId: user.userId, token, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

export interface DownloadRun {
  seconds: number;
  bytes: number;
  peakRss: number;
}

/** Downloads each path in turn, keeping no byte. */
export async function download(api: BenchApi, paths: readonly string[]): Promise<DownloadRun> {
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 20);
  const started = performance.now();
  let bytes = 0;
  try {
    for (const path of paths) {
      const res = await fetch(api.base + path, {
        headers: { authorization: `Bearer ${api.token}` },
      });
      if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
      }
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds, bytes, peakRss: Math.max(peakRss, process.memoryUsage.rss()) };
}
