/**
 * API benchmark: starts the service in-process (the embedded default) on its
 * own database and a free loopback port, then measures
 *   a) submit latency of a 50 prompts × 10 platforms batch (500 sub tasks),
 *   b) status endpoint latency under 50 concurrent keep-alive pollers.
 * Run through bench/run.sh, which starts the MongoDB-wire server and passes
 * BENCH_MONGO_URL. Other knobs: BENCH_SECONDS (poll phase, default 10),
 * BENCH_POLLERS (default 50), BENCH_SUBMITS (default 20).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import mongoose from 'mongoose';
import { createBroker } from '../services/index.js';
import { loadConfig } from '../services/shared/config.js';
import { envInt, percentile, request } from './common.js';

const SUBMIT_PATH = '/api/business/monitor/task/batch/shared';
const STATUS_PATH = '/api/business/monitor/task/status/';
const PLATFORMS = [
  'chatgpt',
  'claude',
  'gemini',
  'perplexity',
  'doubao',
  'kimi',
  'qwen',
  'yuanbao',
  'wenxin',
  'zhipu',
] as const;
const PROMPTS = 50;
const WARMUP_SUBMITS = 2;
/** Whole-run ceiling: the process exits non-zero if it is exceeded. */
const RUN_TIMEOUT_MS = 10 * 60_000;

const mongoUrl = process.env.BENCH_MONGO_URL;
if (!mongoUrl) {
  console.error('BENCH_MONGO_URL is not set: run `bash bench/run.sh` (it starts the server)');
  process.exit(2);
}
const seconds = envInt('BENCH_SECONDS', 10, 0.1);
const pollers = envInt('BENCH_POLLERS', 50, 1);
const submits = envInt('BENCH_SUBMITS', 20, 1);

const watchdog = setTimeout(() => {
  console.error(`bench: gave up after ${RUN_TIMEOUT_MS / 1000} s`);
  process.exit(1);
}, RUN_TIMEOUT_MS);
watchdog.unref();

const ms = (n: number) => `${n.toFixed(1)} ms`;

function batchBody(run: number) {
  return {
    monitorKeywords: 'Acme, 阿克米; AcmeCRM',
    prompts: Array.from(
      { length: PROMPTS },
      (_, i) =>
        `Benchmark run ${run}, question ${i + 1}: which CRM vendors would you recommend ` +
        `for a mid-sized company in 2025, and why? 请列出理由。`,
    ),
    platforms: PLATFORMS.map((platform) => ({ platform, mode: 'standard', screenshot: 0 })),
    regionCode: ['110000'],
  };
}

const started = performance.now();
let phaseStart = started;
/** Logs how long the phase that just ended took (stderr, next to the service's own logs). */
function phase(name: string): void {
  const now = performance.now();
  console.error(`bench: ${name} took ${((now - phaseStart) / 1000).toFixed(1)} s`);
  phaseStart = now;
}
const config = loadConfig({
  MONGO_URL: mongoUrl,
  MONGO_DB: `bench_${randomBytes(4).toString('hex')}`,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_RPS: '1000000',
  RATE_LIMIT_BURST: '1000000',
  MAX_UNFINISHED_SUBTASKS: '100000000',
});
const broker = await createBroker(config, config.services);

let failed = false;
/** Our own connection to the bench database: server identification and the final drop. */
let admin: mongoose.Connection | undefined;
try {
  admin = await mongoose
    .createConnection(config.mongoUrl, { dbName: config.mongoDb, serverSelectionTimeoutMS: 10_000 })
    .asPromise();
  const info = await admin.db!.admin().command({ buildInfo: 1 });
  const server =
    'ferretdbVersion' in info
      ? `FerretDB, MongoDB ${String(info.version)} wire`
      : `MongoDB ${String(info.version)}`;
  await broker.start();
  const port = broker.getLocalService('api')!.settings.port as number;
  const base = `http://127.0.0.1:${port}`;
  console.error(`bench: service on ${base}, database ${config.mongoDb}`);

  const user = await broker.call<{ userId: number }, object>('users.createUser', {
    name: 'bench',
  });
  const key = await broker.call<{ apiKey: string }, object>('users.createApiKey', {
    userId: user.userId,
  });
  const tokenRes = await request(base, 'POST', '/api/business/auth/token', undefined, {
    apiKey: key.apiKey,
  });
  if (tokenRes.status !== 200) {
    throw new Error(`token exchange failed: ${tokenRes.status} ${JSON.stringify(tokenRes.body)}`);
  }
  const token = tokenRes.body.data.accessToken as string;
  phase('start, user and token');

  // a) submit latency, sequential.
  const taskIds: string[] = [];
  const submitMs: number[] = [];
  let submitBytes = 0;
  for (let i = 0; i < WARMUP_SUBMITS + submits; i++) {
    const body = batchBody(i);
    const t0 = performance.now();
    const res = await request(base, 'POST', SUBMIT_PATH, token, body);
    const elapsed = performance.now() - t0;
    if (res.status !== 200 || res.body?.data?.totalTask !== PROMPTS * PLATFORMS.length) {
      throw new Error(
        `submit ${i} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`,
      );
    }
    taskIds.push(res.body.data.taskId as string);
    submitBytes = res.bytes;
    if (i >= WARMUP_SUBMITS) submitMs.push(elapsed);
  }
  submitMs.sort((a, b) => a - b);
  phase(`${taskIds.length} submissions`);

  // One sequential status request per task: checks every task and gives a single-client baseline.
  let statusBytes = 0;
  const seqStatusMs: number[] = [];
  for (const id of taskIds) {
    const t0 = performance.now();
    const res = await request(base, 'GET', STATUS_PATH + id, token);
    seqStatusMs.push(performance.now() - t0);
    if (res.status !== 200 || res.body?.data?.subTaskList?.length !== PROMPTS * PLATFORMS.length) {
      throw new Error(`status warm-up failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
    statusBytes = res.bytes;
  }
  seqStatusMs.sort((a, b) => a - b);
  phase('sequential status');

  // b) status latency under concurrent keep-alive pollers (undici's pooled global dispatcher).
  const statusMs: number[] = [];
  const errorKinds = new Map<string, number>();
  let errors = 0;
  const elu0 = performance.eventLoopUtilization();
  const pollStart = performance.now();
  const deadline = pollStart + seconds * 1000;
  const poll = async (n: number) => {
    let k = n;
    while (performance.now() < deadline) {
      const id = taskIds[k % taskIds.length]!;
      k += pollers;
      const t0 = performance.now();
      let kind: string | undefined;
      try {
        const res = await request(base, 'GET', STATUS_PATH + id, token);
        if (res.status !== 200) kind = `HTTP ${res.status}`;
      } catch (err) {
        kind = (err as Error).name;
      }
      statusMs.push(performance.now() - t0);
      if (kind) {
        errors += 1;
        errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: pollers }, (_, n) => poll(n)));
  const pollSeconds = (performance.now() - pollStart) / 1000;
  const elu = performance.eventLoopUtilization(elu0);
  statusMs.sort((a, b) => a - b);
  phase('polling');

  const rps = statusMs.length / pollSeconds;
  const okCount = statusMs.length - errors;
  const kinds = [...errorKinds].map(([k, v]) => `${k}: ${v}`).join(', ');
  console.log('');
  console.log('== figures');
  console.log(
    `submit ${PROMPTS}x${PLATFORMS.length} (${submits} sequential after ${WARMUP_SUBMITS} warm-ups): ` +
      `p50 ${ms(percentile(submitMs, 50))}, p90 ${ms(percentile(submitMs, 90))}, ` +
      `max ${ms(submitMs[submitMs.length - 1]!)}`,
  );
  console.log(
    `status x1 sequential (${seqStatusMs.length} requests, one per task): ` +
      `p50 ${ms(percentile(seqStatusMs, 50))}, max ${ms(seqStatusMs[seqStatusMs.length - 1]!)}`,
  );
  console.log(
    `status x${pollers} pollers (${pollSeconds.toFixed(1)} s over ${taskIds.length} tasks of ` +
      `${PROMPTS * PLATFORMS.length} sub tasks): ${rps.toFixed(1)} req/s ` +
      `(${(okCount / pollSeconds).toFixed(1)} ok/s), ` +
      `p50 ${ms(percentile(statusMs, 50))}, p99 ${ms(percentile(statusMs, 99))}, ` +
      `max ${ms(statusMs[statusMs.length - 1] ?? NaN)}, errors ${errors}${kinds ? ` (${kinds})` : ''}`,
  );
  console.log(
    `(${statusMs.length} status requests; response ${statusBytes} bytes; submit response ` +
      `${submitBytes} bytes; event loop utilisation during polling ${(elu.utilization * 100).toFixed(0)}%; ` +
      `client and service share one process; database ${server})`,
  );
} catch (err) {
  failed = true;
  console.error(`bench failed: ${(err as Error).stack ?? String(err)}`);
} finally {
  await admin?.dropDatabase().catch(() => undefined);
  await admin?.close();
  await broker.stop().catch((err: unknown) => console.error(err));
  phase('drop database and stop');
  console.error(`bench: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  clearTimeout(watchdog);
}
process.exit(failed ? 1 : 0);
