/**
 * Monitors benchmark (`npm run bench:monitors`, BENCH_MONGO_URL set to a
 * MongoDB-wire server), on the embedded default in this process:
 *   1) trends: --runs finished daily runs of one monitor with --prompts
 *      prompts × --platforms platforms × --samples samples per cell and three
 *      keyword groups, their snapshots inserted straight into `monitorRuns`;
 *      then --rounds timed `GET …/monitors/{id}/trends` (p50, p95; target
 *      < 300 ms);
 *   2) leader CPU: --monitors monitors due in the same minute inserted at once;
 *      process.cpuUsage from then until each has its run started (every
 *      region's task submitted through tasks.submit): target < 1 s. With
 *      BENCH_NATS_URL set, the tasks service runs in a child process
 *      (bench/tasks-node.ts) over NATS, so the figure is the leader's own CPU;
 *      without it, the tasks service's handling is counted too.
 * Defaults: 90 runs × 50 prompts × 6 platforms × 3 samples, 20 rounds, 100
 * monitors. A tiny run: --runs 3 --prompts 2 --rounds 2 --monitors 3.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { PATHS, pathTo } from '../services/shared/contracts/http-paths.js';
import { newTaskId } from '../services/shared/ids.js';
import type { CellSnapshot } from '../services/monitors/snapshot.js';
import type { MonitorDoc, RunDoc } from '../services/monitors/models.js';
import { poolRegion } from '../services/monitors/trends/pooled.js';
import { percentile, request } from './common.js';
import { startBenchApi } from './embedded-api.js';

const TRENDS_TARGET_MS = 300;
const CPU_TARGET_MS = 1_000;
const DAY = 86_400_000;
const KEYWORDS = ['Acme|acme.com', 'Globex', 'Initech'];
const DOMAINS = [
  'acme.com',
  'reviewhub.example',
  'techdaily.example',
  'forum.example',
  'g2.example',
];

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '90' },
    prompts: { type: 'string', default: '50' },
    platforms: { type: 'string', default: '6' },
    samples: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '20' },
    monitors: { type: 'string', default: '100' },
  },
});
const int = (name: keyof typeof values): number => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be an integer >= 1`);
  return n;
};
const runs = int('runs');
const prompts = int('prompts');
const platforms = int('platforms');
const samples = int('samples');
const rounds = int('rounds');
const monitors = int('monitors');

const mongoUrl = process.env.BENCH_MONGO_URL;
if (!mongoUrl) {
  console.error('BENCH_MONGO_URL is not set: point it at a MongoDB-wire server');
  process.exit(2);
}

/** A deterministic spread of figures: cell i of run r. */
function cell(r: number, i: number): CellSnapshot {
  const k = (r * 31 + i * 17) % 97;
  const mentioned = (n: number) => Math.min(samples, (k + n) % (samples + 1));
  return {
    prompt: Math.floor(i / platforms),
    platform: `platform-${i % platforms}`,
    channel: i % 2 === 0 ? 'api' : 'web',
    mode: 'search',
    asked: samples,
    answered: samples,
    ranOtherMode: 0,
    groups: KEYWORDS.map((entry, g) => {
      const m = mentioned(g * 7);
      return {
        keyword: entry.split('|')[0]!,
        mentioned: m,
        mentionCount: m * (g + 1),
        positions: Array.from({ length: m }, (_, j) => 1 + ((k + j + g) % 5)),
        inReasoning: Math.min(samples, m + 1),
        inReferences: Math.min(m, 1),
        inCitations: Math.min(m, 1),
        droppedAfterReasoning: Math.min(samples, m + 1) - m,
      };
    }),
    citedDomains: Object.fromEntries(
      DOMAINS.slice(0, 1 + (k % DOMAINS.length)).map((d) => [d, 1 + (k % samples)]),
    ),
    stability: (k % 10) / 10,
    models: [r < runs / 2 ? 'model-a' : 'model-b'],
    targetWidth: null,
    widthReached: 0.5,
  };
}

function monitorDoc(userId: number, now: number, nextDueAt: number, name: string): MonitorDoc {
  return {
    _id: newTaskId(),
    userId,
    name,
    prompts: [{ text: `best CRM for team ${name}`, tags: [] }],
    platforms: [{ platform: 'sandbox', channel: 'api', mode: 'search', screenshot: 0 }],
    regionCodes: [],
    monitorKeywords: 'Acme, Globex',
    keywords: ['Acme', 'Globex'],
    samples: 1,
    schedule: { everyMinutes: 1440 },
    callbackUrl: null,
    digest: false,
    enabled: true,
    createdAt: now,
    updatedAt: now,
    nextDueAt,
  };
}

const natsUrl = process.env.BENCH_NATS_URL;
const namespace = `bench-monitors-${process.pid}`;

/** The tasks service in its own process, answering over NATS. */
async function startTasksNode(db: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/tasks-node.ts', mongoUrl!, db, natsUrl!, namespace],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = await once(child.stdout!, 'data');
  if (!String(line).includes('ready')) throw new Error(`tasks node: ${String(line)}`);
  return child;
}

const fmt = (ms: number) => ms.toFixed(1);
const api = await startBenchApi(mongoUrl, 'monitors', {
  SERVICES: natsUrl ? 'api,users,monitors' : 'api,tasks,users,monitors',
  ...(natsUrl ? { TRANSPORTER: natsUrl, NAMESPACE: namespace } : {}),
});
let tasksNode: ChildProcess | null = null;
try {
  const now = Date.now();
  const db = api.conn.db!;
  const trendsMonitor = monitorDoc(api.userId, now, now + 365 * DAY, 'trends');
  trendsMonitor.enabled = false;
  await db.collection('monitors').insertOne(trendsMonitor as never);
  const cellsPerRun = prompts * platforms;
  for (let r = 0; r < runs; r++) {
    const slot = now - (runs - r) * DAY;
    const cells = Array.from({ length: cellsPerRun }, (_, i) => cell(r, i));
    const promptTags = Array.from({ length: prompts }, (_, p) => [`topic-${p % 5}`]);
    const run: Omit<RunDoc, 'body'> & { body: object } = {
      _id: newTaskId(),
      monitorId: trendsMonitor._id,
      userId: api.userId,
      trigger: 'schedule',
      slot,
      slotKey: `${trendsMonitor._id}@${slot}`,
      status: 'finished',
      body: {},
      samples,
      sampling: samples,
      promptTags,
      regions: [
        {
          regionCode: null,
          taskId: newTaskId(),
          submitted: true,
          taskStatus: 'completed',
          error: null,
          followUps: [],
          cells,
          pools: poolRegion(null, cells, promptTags),
        },
      ],
      createdAt: slot,
      finishedAt: slot + 60_000,
      changesDetectedAt: slot + 60_000,
      startToken: null,
      startHolder: null,
      startExpiresAt: null,
    };
    await db.collection('monitorRuns').insertOne(run as never);
  }

  // The read trends did before pre-pooling: every cell of every run, in this process.
  const cellTimes: number[] = [];
  for (let i = 0; i < Math.min(rounds, 5); i++) {
    const started = performance.now();
    await db
      .collection('monitorRuns')
      .find({ monitorId: trendsMonitor._id }, { projection: { 'regions.cells': 1 } })
      .toArray();
    cellTimes.push(performance.now() - started);
  }
  cellTimes.sort((a, b) => a - b);
  console.log(
    `every cell read (the read trends did before pre-pooling): p50 ${fmt(percentile(cellTimes, 50))} ms over ${cellTimes.length} reads`,
  );

  const path = pathTo(PATHS.MONITOR_TRENDS, { monitorId: trendsMonitor._id });
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < rounds + 1; i++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const res = await request(api.base, 'GET', path, api.token);
    const ms = performance.now() - started;
    const cpuUsed = process.cpuUsage(cpuBefore);
    if (res.status !== 200) throw new Error(`trends: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.data.series[0].points.length !== runs) throw new Error('trends: a point missing');
    bytes = res.bytes;
    // The first request warms mongoose and the JIT.
    if (i > 0) {
      times.push(ms);
      cpuTimes.push((cpuUsed.user + cpuUsed.system) / 1000);
    }
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const p95 = percentile(times, 95);
  console.log(
    `trends: ${runs} runs × ${prompts} prompts × ${platforms} platforms × ${samples} samples (${runs * cellsPerRun} cells, ${(bytes / 1024).toFixed(0)} KiB answer): p50 ${fmt(p50)} ms, p95 ${fmt(p95)} ms over ${rounds} requests (target < ${TRENDS_TARGET_MS} ms: ${p95 < TRENDS_TARGET_MS ? 'met' : 'missed'}); CPU of this process (api and monitors, not the database) p50 ${fmt(percentile(cpuTimes, 50))} ms`,
  );

  if (natsUrl) {
    tasksNode = await startTasksNode(api.conn.name);
    await api.broker.waitForServices('tasks', 30_000);
  }
  const due = Date.now() - 1_000;
  const docs = Array.from({ length: monitors }, (_, i) =>
    monitorDoc(api.userId, due, due, `m${i}`),
  );
  const ids = docs.map((d) => d._id);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  await db.collection('monitors').insertMany(docs as never[]);
  const runsColl = db.collection('monitorRuns');
  for (;;) {
    const started = await runsColl.countDocuments({
      monitorId: { $in: ids },
      status: { $in: ['running', 'failed', 'finished'] },
    } as never);
    if (started === monitors) break;
    if (performance.now() - wall > 120_000) throw new Error(`only ${started} runs started`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `leader: ${monitors} monitors due in one minute started in ${fmt(performance.now() - wall)} ms wall, ${fmt(cpuMs)} ms CPU of this process (${natsUrl ? 'the leader alone: tasks.submit answered by another process' : 'tasks.submit handled here too'}; target < ${CPU_TARGET_MS} ms: ${cpuMs < CPU_TARGET_MS ? 'met' : 'missed'})`,
  );
  console.log(
    `machine: ${availableParallelism()} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  // The leader first: its sweep calls tasks.brief until it stops.
  await api.stop();
  tasksNode?.kill('SIGTERM');
  if (tasksNode) await once(tasksNode, 'exit');
}
