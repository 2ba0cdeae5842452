/**
 * API benchmark, in two phases, each on its own database:
 *
 * 1. Submission, on a quiet service whose crawler node advertises what it can
 *    run but no scheduler leases anything: 50 prompts × every configuration
 *    GET /platforms offers (available platform × mode × screenshot variant),
 *    in as few submissions as deduplication by platform allows, one after
 *    another and then by four clients side by side. Then, side by
 *    side, the status endpoint of a 100-sub-task task and a bare Koa handler
 *    serialising the same body, each under 50 keep-alive pollers.
 * 2. Status under load: the same pollers on a 100-sub-task task while a
 *    400-sub-task batch runs in the same process (the embedded default: every
 *    service and a crawler node with capacity 50 on its sandbox, 1 s latency).
 *
 * The pollers run in a child process (bench/api/load.ts). Run through
 * bench/run.sh, which starts the MongoDB-wire server and passes
 * BENCH_MONGO_URL. Knobs (BENCH_*): PROMPTS (50), SUBMIT_ROUNDS (3, timed
 * after one warm-up), POLLERS (50), SECONDS (10 per polling run),
 * BATCH_TASKS (4 tasks of PROMPTS × 2 sub tasks), CAPACITY (50), LATENCY_MS (1000).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ServiceBroker } from 'moleculer';
import mongoose from 'mongoose';
import { createBroker } from '../services/index.js';
import { loadConfig } from '../services/shared/config.js';
import { startBare, stopBare, BARE_PATH } from './api/bare.js';
import { loadFromChild } from './api/client.js';
import {
  availableConfigurations,
  packSubmissions,
  type CatalogueEntry,
  type PlatformConfiguration,
} from './api/configurations.js';
import type { LoadFigures } from './api/load.js';
import { envInt, percentile, request } from './common.js';
import { PATHS, pathTo } from '../services/shared/contracts/http-paths.js';

/** The contract's limit of platform entries per submission. */
const PLATFORMS_PER_SUBMISSION = 50;
/** The polled task and the batch: API-channel sandboxes, no screenshots (no browser work). */
const LOAD_PLATFORMS: PlatformConfiguration[] = [
  { platform: 'sandbox', mode: 'standard', screenshot: 0 },
  { platform: 'sandbox-cn', mode: 'standard', screenshot: 0 },
];
/** The issue's submission target: 2,500 sub tasks in under 300 ms. */
const SUB_TASKS_TARGET = 2500;
const SUBMIT_TARGET_MS = 300;
/**
 * Clients that submit at once in the second measure: requests then overlap
 * the api's work with the database's on two cores, as the pipeline
 * benchmark's four submitting clients do.
 */
const SIDE_BY_SIDE_CLIENTS = 4;
/** Whole-run ceiling: the process exits non-zero if it is exceeded. */
const RUN_TIMEOUT_MS = 10 * 60_000;
/** How long the batch may take to finish after polling before the run gives up waiting. */
const BATCH_FINISH_MS = 120_000;

const mongoUrl = process.env.BENCH_MONGO_URL;
if (!mongoUrl) {
  console.error('BENCH_MONGO_URL is not set: run `bash bench/run.sh` (it starts the server)');
  process.exit(2);
}
const prompts = envInt('BENCH_PROMPTS', 50, 1);
const submitRounds = envInt('BENCH_SUBMIT_ROUNDS', 3, 1);
const pollers = envInt('BENCH_POLLERS', 50, 1);
const seconds = envInt('BENCH_SECONDS', 10, 0.1);
const batchTasks = envInt('BENCH_BATCH_TASKS', 4, 1);
const capacity = envInt('BENCH_CAPACITY', 50, 1);
const latencyMs = envInt('BENCH_LATENCY_MS', 1000, 0);

const watchdog = setTimeout(() => {
  console.error(`bench: gave up after ${RUN_TIMEOUT_MS / 1000} s`);
  process.exit(1);
}, RUN_TIMEOUT_MS);
watchdog.unref();

const ms = (n: number) => `${n.toFixed(1)} ms`;
const started = performance.now();
let phaseStart = started;
/** Logs how long the phase that just ended took (stderr, next to the service's own logs). */
function phase(name: string): void {
  const now = performance.now();
  console.error(`bench: ${name} took ${((now - phaseStart) / 1000).toFixed(1)} s`);
  phaseStart = now;
}

function submission(run: string, platforms: PlatformConfiguration[]) {
  return {
    monitorKeywords: 'Acme, 阿克米; AcmeCRM',
    prompts: Array.from(
      { length: prompts },
      (_, i) =>
        `Benchmark ${run}, question ${i + 1}: which CRM vendors would you recommend ` +
        `for a mid-sized company in 2025, and why? 请列出理由。`,
    ),
    platforms,
  };
}

interface Service {
  broker: ServiceBroker;
  base: string;
  db: mongoose.Connection;
  /** A new user's access token. */
  token(name: string): Promise<string>;
  submit(token: string, body: object): Promise<{ taskId: string; totalTask: number }>;
  stop(): Promise<void>;
}

async function startService(env: Record<string, string>): Promise<Service> {
  const config = loadConfig({
    MONGO_URL: mongoUrl!,
    MONGO_DB: `bench_${randomBytes(4).toString('hex')}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_RPS: '1000000',
    RATE_LIMIT_BURST: '1000000',
    MAX_UNFINISHED_SUBTASKS: '100000000',
    CRAWLER_CAPACITY: String(capacity),
    SANDBOX_LATENCY_MS: String(latencyMs),
    ...env,
  });
  const broker = await createBroker(config, config.services);
  const db = await mongoose
    .createConnection(config.mongoUrl, { dbName: config.mongoDb, serverSelectionTimeoutMS: 10_000 })
    .asPromise();
  await broker.start();
  const base = `http://127.0.0.1:${broker.getLocalService('api')!.settings.port as number}`;
  return {
    broker,
    base,
    db,
    async token(name) {
      const user = await broker.call<{ userId: number }, object>('users.createUser', { name });
      const key = await broker.call<{ apiKey: string }, object>('users.createApiKey', {
        userId: user.userId,
      });
      const res = await request(base, 'POST', PATHS.AUTH_TOKEN, undefined, {
        apiKey: key.apiKey,
      });
      if (res.status !== 200) throw new Error(`token exchange failed: ${res.status}`);
      return res.body.data.accessToken as string;
    },
    async submit(token, body) {
      const res = await request(base, 'POST', PATHS.TASK_SUBMIT, token, body);
      if (res.status !== 200) {
        throw new Error(`submit failed: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
      }
      return res.body.data as { taskId: string; totalTask: number };
    },
    async stop() {
      // The service first, so nothing of it still writes to a dropped database.
      await broker.stop();
      await db.dropDatabase().catch(() => undefined);
      await db.close();
    },
  };
}

/** The crawler node advertises; with no scheduler nothing is leased, so submissions stay put. */
const QUIET_SERVICES = 'api,tasks,users,proxies,callbacks,crawler';

function pollStatus(svc: Service, token: string, taskId: string): Promise<LoadFigures> {
  return loadFromChild({
    origin: svc.base,
    path: pathTo(PATHS.TASK_STATUS, { taskId }),
    token,
    connections: pollers,
    seconds,
    maxRequests: Number.MAX_SAFE_INTEGER,
  });
}

function describe(f: LoadFigures): string {
  const kinds = Object.entries(f.errorKinds).map(([k, v]) => `${k}: ${v}`);
  return (
    `${f.rps.toFixed(0)} req/s, p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, max ${ms(f.max)}, ` +
    `${f.requests} requests, errors ${f.errors}${kinds.length ? ` (${kinds.join(', ')})` : ''}`
  );
}

async function submissionPhase(lines: string[]): Promise<{ bare: LoadFigures }> {
  const svc = await startService({ SERVICES: QUIET_SERVICES });
  try {
    const token = await svc.token('bench-submit');
    const catalogue = await request(svc.base, 'GET', PATHS.PLATFORMS, token);
    if (catalogue.status !== 200) throw new Error(`GET /platforms: ${catalogue.status}`);
    const configurations = availableConfigurations(catalogue.body.data as CatalogueEntry[]);
    const submissions = packSubmissions(configurations, PLATFORMS_PER_SUBMISSION);
    const subTasks = configurations.length * prompts;
    phase('start (quiet service), user and catalogue');

    /** Timed rounds (after one warm-up) of every submission, `clients` requests at a time. */
    const timeRounds = async (tag: string, clients: number) => {
      const rounds: number[] = [];
      const perRequest: number[] = [];
      for (let round = 0; round <= submitRounds; round++) {
        const t0 = performance.now();
        const queue = [...submissions.entries()];
        const client = async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const [i, platforms] = next;
            const r0 = performance.now();
            const { totalTask } = await svc.submit(
              token,
              submission(`${tag}${round}.${i}`, platforms),
            );
            if (totalTask !== prompts * platforms.length)
              throw new Error(`totalTask ${totalTask}, expected ${prompts * platforms.length}`);
            if (round > 0) perRequest.push(performance.now() - r0);
          }
        };
        await Promise.all(Array.from({ length: clients }, client));
        if (round > 0) rounds.push(performance.now() - t0);
      }
      rounds.sort((a, b) => a - b);
      perRequest.sort((a, b) => a - b);
      return { rounds, perRequest, median: percentile(rounds, 50) };
    };
    const { rounds, perRequest, median } = await timeRounds('a', 1);
    const side = await timeRounds('b', SIDE_BY_SIDE_CLIENTS);
    const stored = await svc.db.collection('subtasks').countDocuments();
    if (stored !== 2 * subTasks * (submitRounds + 1))
      throw new Error(`stored ${stored} sub tasks, expected ${2 * subTasks * (submitRounds + 1)}`);
    phase(`${2 * (submitRounds + 1)} submission rounds`);
    lines.push(
      `submit ${prompts} prompts × ${configurations.length} configurations ` +
        `(${[...new Set(configurations.map((c) => c.platform))].join(', ')} × modes × screenshot 0/1/2) ` +
        `= ${subTasks} sub tasks in ${submissions.length} requests, one after another: ` +
        `median round ${ms(median)} (fastest ${ms(rounds[0]!)}, slowest ${ms(rounds.at(-1)!)}), ` +
        `per request p50 ${ms(percentile(perRequest, 50))}, max ${ms(perRequest.at(-1)!)} ` +
        `(${submitRounds} rounds after a warm-up)`,
    );
    const per2500 = (median * SUB_TASKS_TARGET) / subTasks;
    lines.push(
      `submission per 2,500 sub tasks: ${ms(per2500)} ` +
        `(median round × 2,500 / ${subTasks}; target < ${SUBMIT_TARGET_MS} ms: ` +
        `${per2500 < SUBMIT_TARGET_MS ? 'met' : 'missed'})`,
    );
    lines.push(
      `the same by ${SIDE_BY_SIDE_CLIENTS} clients side by side: median round ${ms(side.median)} ` +
        `(${ms((side.median * SUB_TASKS_TARGET) / subTasks)} per 2,500), ` +
        `per request p50 ${ms(percentile(side.perRequest, 50))}`,
    );

    // The status endpoint and the bare handler, side by side on a quiet machine.
    const polled = await svc.submit(token, submission('status', LOAD_PLATFORMS));
    const status = await request(
      svc.base,
      'GET',
      pathTo(PATHS.TASK_STATUS, { taskId: polled.taskId }),
      token,
    );
    if (status.status !== 200) throw new Error(`status: ${status.status}`);
    const bareServer = await startBare(status.body.data);
    const bare = await loadFromChild({
      origin: bareServer.origin,
      path: BARE_PATH,
      connections: pollers,
      seconds,
      maxRequests: Number.MAX_SAFE_INTEGER,
    }).finally(() => stopBare(bareServer.server));
    if (bare.bytes !== status.bytes)
      throw new Error(`bare body ${bare.bytes} bytes, status ${status.bytes}`);
    phase('bare handler');
    const quiet = await pollStatus(svc, token, polled.taskId);
    phase('status, quiet');
    lines.push(`bare Koa handler, same ${bare.bytes}-byte body, x${pollers}: ${describe(bare)}`);
    lines.push(`status x${pollers}, quiet (${polled.totalTask} sub tasks): ${describe(quiet)}`);
    return { bare };
  } finally {
    await svc.stop();
  }
}

async function loadPhase(lines: string[], bare: LoadFigures): Promise<boolean> {
  const svc = await startService({});
  try {
    const batchToken = await svc.token('bench-batch');
    const pollToken = await svc.token('bench-poll');
    phase('start (embedded default), users');
    const batch: string[] = [];
    for (let i = 0; i < batchTasks; i++)
      batch.push((await svc.submit(batchToken, submission(`batch ${i}`, LOAD_PLATFORMS))).taskId);
    const polled = await svc.submit(pollToken, submission('polled', LOAD_PLATFORMS));
    const all = [...batch, polled.taskId];
    const settledBefore = await finalSubTasks(svc);
    const figures = await pollStatus(svc, pollToken, polled.taskId);
    const settledDuring = (await finalSubTasks(svc)) - settledBefore;
    phase('status under load');
    const finished = await waitFinished(svc, all);
    phase('batch finish');
    const batchSubTasks = batchTasks * prompts * LOAD_PLATFORMS.length;
    const rateShare = figures.rps / bare.rps;
    const p99Ratio = figures.p99 / bare.p99;
    lines.push(
      `status x${pollers} under load (${polled.totalTask}-sub-task task polled while a ` +
        `${batchSubTasks}-sub-task batch ran; ${settledDuring} sub tasks settled during polling; ` +
        `capacity ${capacity}, latency ${latencyMs} ms): ${describe(figures)}`,
    );
    lines.push(
      `under load vs bare: ${(rateShare * 100).toFixed(0)} % of the rate (target >= 30 %), ` +
        `p99 ${p99Ratio.toFixed(2)}x (target <= 2x)`,
    );
    if (!finished) lines.push(`batch not finished ${BATCH_FINISH_MS / 1000} s after polling`);
    return figures.errors === 0 && finished;
  } finally {
    await svc.stop();
  }
}

async function finalSubTasks(svc: Service): Promise<number> {
  return svc.db
    .collection('subtasks')
    .countDocuments({ status: { $nin: ['pending', 'processing'] } });
}

async function waitFinished(svc: Service, taskIds: string[]): Promise<boolean> {
  const deadline = performance.now() + BATCH_FINISH_MS;
  while (performance.now() < deadline) {
    const open = await svc.db.collection('tasks').countDocuments({
      _id: { $in: taskIds as never[] },
      status: { $in: ['pending', 'processing'] },
    });
    if (open === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

let failed = false;
const lines: string[] = [];
try {
  const { bare } = await submissionPhase(lines);
  failed = !(await loadPhase(lines, bare));
} catch (err) {
  failed = true;
  console.error(`bench failed: ${(err as Error).stack ?? String(err)}`);
} finally {
  console.log('');
  console.log('== figures');
  for (const line of lines) console.log(line);
  console.error(`bench: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  clearTimeout(watchdog);
}
process.exit(failed ? 1 : 0);
