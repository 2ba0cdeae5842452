/**
 * Export benchmark (issue 14): rows per second of
 * `GET …/task/{taskId}/export` in CSV, NDJSON and XLSX over a task of 2,500
 * answered sub tasks (2–4 KB answers, 3–5 references; bench/export/seed.ts),
 * and the peak RSS of each run. The api, tasks and users services run in
 * this process (one broker, as the embedded default), so the RSS is theirs
 * plus the client's, which counts the bytes and keeps none. `bash
 * bench/export.sh` starts a MongoDB-wire server and passes BENCH_MONGO_URL.
 * Options: --subtasks N (2500), --rounds N (3: the median round is printed).
 */
import { parseArgs } from 'node:util';
import mongoose from 'mongoose';
import { createBroker } from '../services/index.js';
import { loadConfig } from '../services/shared/config.js';
import { seedLargeTask } from './export/seed.js';

const { values } = parseArgs({
  options: {
    subtasks: { type: 'string', default: '2500' },
    rounds: { type: 'string', default: '3' },
  },
});
const SUB_TASKS = Number(values.subtasks);
const ROUNDS = Number(values.rounds);
if (!(SUB_TASKS >= 1 && ROUNDS >= 1)) throw new Error('--subtasks and --rounds must be at least 1');
const mongoUrl = process.env.BENCH_MONGO_URL;
if (!mongoUrl) {
  console.error('BENCH_MONGO_URL is not set: run `bash bench/export.sh` (it starts the server)');
  process.exit(2);
}
/** A run that hangs is a failure, not a figure. */
const WATCHDOG_MS = 10 * 60_000;
setTimeout(() => {
  console.error('export benchmark: watchdog fired');
  process.exit(3);
}, WATCHDOG_MS).unref();

const config = loadConfig({
  MONGO_URL: mongoUrl,
  MONGO_DB: `bench_export_${Date.now()}`,
  PORT: '0',
  LOG_LEVEL: 'warn',
  SERVICES: 'api,tasks,users',
  RATE_LIMIT_RPS: '1000',
  RATE_LIMIT_BURST: '1000',
});
const broker = await createBroker(config, config.services);
await broker.start();
const conn = await mongoose
  .createConnection(config.mongoUrl, { dbName: config.mongoDb })
  .asPromise();
const base = `http://127.0.0.1:${broker.getLocalService('api')!.settings.port as number}`;

try {
  const user = await broker.call<{ userId: number }, object>('users.createUser', { name: 'bench' });
  const key = await broker.call<{ apiKey: string }, object>('users.createApiKey', {
    userId: user.userId,
  });
  const tokenRes = await fetch(`${base}/api/business/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: key.apiKey }),
  });
  const token = ((await tokenRes.json()) as { data: { accessToken: string } }).data.accessToken;
  const seeded = Date.now();
  const taskId = await seedLargeTask(conn, user.userId, SUB_TASKS);
  const rssBefore = process.memoryUsage.rss();
  console.log(
    `== export of ${SUB_TASKS} sub tasks (seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s), median of ${ROUNDS} rounds`,
  );

  console.log(`RSS before the exports ${(rssBefore / 1024 / 1024).toFixed(0)} MB`);
  for (const format of ['csv', 'ndjson', 'xlsx'] as const) {
    const runs: { seconds: number; bytes: number; peakRss: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) runs.push(await download(taskId, format, token));
    runs.sort((a, b) => a.seconds - b.seconds);
    const median = runs[Math.floor(runs.length / 2)]!;
    const peakRss = Math.max(...runs.map((r) => r.peakRss));
    console.log(
      `${format}: ${Math.round(SUB_TASKS / median.seconds)} rows per second (${SUB_TASKS} rows in ${median.seconds.toFixed(2)} s, ${(median.bytes / 1024 / 1024).toFixed(1)} MB), peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB`,
    );
  }
} finally {
  await conn.dropDatabase().catch(() => undefined);
  await conn.close();
  await broker.stop();
}

async function download(taskId: string, format: string, token: string) {
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 20);
  const started = performance.now();
  let bytes = 0;
  try {
    const res = await fetch(`${base}/api/business/monitor/task/${taskId}/export?format=${format}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) throw new Error(`${format}: HTTP ${res.status} ${await res.text()}`);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds, bytes, peakRss: Math.max(peakRss, process.memoryUsage.rss()) };
}
