/**
 * Pipeline benchmark: a real cluster over NATS, each node a child process as
 * `npm run serve` starts it (an api/tasks/users node, a scheduler node and two
 * crawler nodes), on its own database and namespace, with ONE sandbox stand-in
 * in this process that every crawler node shares (SANDBOX_URL), so that it
 * sees every platform request and can count how many are in flight.
 *   a) API channel: BENCH_SUBTASKS (2,000) sub tasks on `sandbox`, mode
 *      standard, no screenshot, BENCH_NODES (2) crawler nodes × BENCH_CAPACITY
 *      (50), each holding BENCH_PREFETCH (the capacity) leases ahead, platform
 *      latency BENCH_LATENCY_MS (1,000), after an unmeasured warm-up batch of
 *      BENCH_WARMUP (500) sub tasks: wall time (first submit to every task
 *      final), the ideal (sub tasks × latency / capacity), their ratio (target
 *      >= 0.95), peak concurrency and scheduler CPU per sub task.
 *   b) web channel: BENCH_WEB_SUBTASKS (120) on `sandbox-web`, crawler nodes of
 *      BENCH_WEB_CAPACITY (4) Chromium pages: sub tasks per minute and memory
 *      per page. BENCH_SKIP_WEB=1 skips it.
 * Run through bench/pipeline.sh, which starts NATS and the MongoDB-wire server
 * and passes BENCH_NATS_URL, BENCH_MONGO_URL and BENCH_DB_PIDS. Other knobs:
 * BENCH_SAMPLE_MS (MongoDB `processing` sampling, default 1,000; each sample
 * is a collection scan on mongo-java-server), BENCH_POLL_MS (the client's "all
 * final yet?" poll, default 1,000; at 250 ms each, these two observers took
 * about 6 % of the machine's CPU), BENCH_SUBMITTERS (clients submitting side by
 * side, default 4), BENCH_STREAM_WRITES (writes per answer
 * stream at the sandbox, default 8; 0 = token-level, about a hundred), BENCH_TRACE=1
 * (timing probes in every node, see bench/pipeline.node.ts).
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import dc from 'node:diagnostics_channel';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import mongoose from 'mongoose';
import type { ServiceBroker } from 'moleculer';
import { startSandboxServer, type SandboxRequestRecord } from '../sandbox/server.js';
import { createBroker } from '../services/index.js';
import { loadConfig } from '../services/shared/config.js';
import { runProcess, startProcess, type Running } from '../test/helpers/processes.js';
import { envInt, percentile, request } from './common.js';

const SUBMIT_PATH = '/api/business/monitor/task/batch/shared';
const LIST_PATH = '/api/business/monitor/task/list';
/** The submit limit is 50 prompts; one platform per task (platforms dedupe by name). */
const PROMPTS_PER_TASK = 50;
/** Whole-run ceiling: every child is killed and the process exits non-zero. */
const RUN_TIMEOUT_MS = 15 * 60_000;
/** The platform requests of the sandbox (page loads and favicons are not counted). */
const PLATFORM_ROUTES = new Set(['POST /v1/chat/completions', 'POST /web/chat']);

const mongoUrl = process.env.BENCH_MONGO_URL;
const natsUrl = process.env.BENCH_NATS_URL;
if (!mongoUrl || !natsUrl) {
  console.error(
    'BENCH_MONGO_URL or BENCH_NATS_URL is not set: run `bash bench/pipeline.sh` (it starts the servers)',
  );
  process.exit(2);
}
const SUBTASKS = envInt('BENCH_SUBTASKS', 2000, 1);
const LATENCY_MS = envInt('BENCH_LATENCY_MS', 1000, 0);
const NODES = envInt('BENCH_NODES', 2, 1);
const CAPACITY = envInt('BENCH_CAPACITY', 50, 1);
const WEB_SUBTASKS = envInt('BENCH_WEB_SUBTASKS', 120, 1);
const WEB_CAPACITY = envInt('BENCH_WEB_CAPACITY', 4, 1);
const SAMPLE_MS = envInt('BENCH_SAMPLE_MS', 1000, 10);
/**
 * How often the client asks whether every task is final (the wall time is read
 * from completedAt, so this only bounds when the run is seen to end).
 */
const POLL_MS = envInt('BENCH_POLL_MS', 1000, 10);
/** Writes per answer stream at the sandbox (0: one per piece, about a hundred); see SandboxServerOptions. */
const STREAM_WRITES = envInt('BENCH_STREAM_WRITES', 8, 0);
/** Clients submitting at the same time (the batches of 50 prompts are shared out among them). */
const SUBMITTERS = envInt('BENCH_SUBMITTERS', 4, 1);
/**
 * Crawler nodes' CRAWLER_PREFETCH. Default: the capacity. With 1 s answers, the
 * report → record → re-lease loop of a freed slot is several percent of the
 * latency, and the answers of a wave end together; a node holding a full wave
 * starts each freed slot's next lease at once. (The product default, a tenth
 * of the capacity, suits real platforms' answers of 10 s and more.)
 */
const PREFETCH = envInt('BENCH_PREFETCH', CAPACITY, 0);
/** Sub tasks run through the whole cluster before the measured run (0: measure a cold start). */
const WARMUP = envInt('BENCH_WARMUP', 500, 0);
const SKIP_WEB = process.env.BENCH_SKIP_WEB === '1';
/** Nodes run bench/pipeline.node.ts (timing probes) instead of bin/serve.ts, and report them. */
const TRACE = process.env.BENCH_TRACE === '1';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

const started = now();
let phaseStart = started;
/** Logs how long the phase that just ended took (stderr, next to the children's logs). */
function phase(name: string): void {
  const t = now();
  console.error(`bench: ${name} took ${((t - phaseStart) / 1000).toFixed(1)} s`);
  phaseStart = t;
}

// ---------------------------------------------------------------- processes

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

interface ProcStat {
  ppid: number;
  /** utime + stime, clock ticks. */
  own: number;
  /** cutime + cstime: children that exited and were waited for. */
  reaped: number;
}

function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name, which may itself contain spaces and parentheses.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(f[1]),
    own: Number(f[11]) + Number(f[12]),
    reaped: Number(f[13]) + Number(f[14]),
  };
}

/** The pid and every live descendant. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const st = procStat(pid);
    if (!st) continue;
    const list = children.get(st.ppid) ?? [];
    list.push(pid);
    children.set(st.ppid, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (!procStat(pid)) continue;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU ticks of a process alone (utime + stime). */
function ownTicks(pid: number): number {
  return procStat(pid)?.own ?? NaN;
}

/** CPU ticks of a whole tree, exited-and-reaped descendants included. */
function treeTicks(root: number): number {
  let sum = 0;
  for (const pid of processTree(root)) {
    const st = procStat(pid);
    if (st) sum += st.own + st.reaped;
  }
  return sum;
}

const ticksMs = (ticks: number) => (ticks * 1000) / CLK_TCK;

/** Busy and total ticks of the whole machine (/proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: total - idle, total };
}

interface Memory {
  /** Sum of VmRSS over the tree, KiB (shared pages counted once per process). */
  rss: number;
  /** Sum of Pss over the tree, KiB (shared pages divided among their users). */
  pss: number;
  processes: number;
  renderers: number;
}

function treeMemory(root: number): Memory {
  const m: Memory = { rss: 0, pss: 0, processes: 0, renderers: 0 };
  for (const pid of processTree(root)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      m.rss += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      m.pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      m.processes += 1;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer'))
        m.renderers += 1;
    } catch {
      // The process ended while we read it.
    }
  }
  return m;
}

function sumMemory(list: Memory[]): Memory {
  return list.reduce(
    (a, b) => ({
      rss: a.rss + b.rss,
      pss: a.pss + b.pss,
      processes: a.processes + b.processes,
      renderers: a.renderers + b.renderers,
    }),
    { rss: 0, pss: 0, processes: 0, renderers: 0 },
  );
}

interface Child {
  name: string;
  nodeId: string;
  p: Running;
}
const children: Child[] = [];

/** Kills a child's whole tree (Chromium included), by pid. */
function killTree(c: Child, signal: NodeJS.Signals): void {
  const pid = c.p.child.pid;
  if (pid === undefined) return;
  for (const p of processTree(pid).reverse()) {
    try {
      process.kill(p, signal);
    } catch {
      // already gone
    }
  }
}

/** SIGTERM (a clean broker stop), then SIGKILL for whatever is left of its tree. */
async function stopChild(c: Child, graceMs = 15_000): Promise<void> {
  const pid = c.p.child.pid;
  const tree = pid === undefined ? [] : processTree(pid);
  const stopped = c.p.stop('SIGTERM');
  const timedOut = await Promise.race([stopped.then(() => false), sleep(graceMs).then(() => true)]);
  if (timedOut) console.error(`bench: ${c.name} did not stop within ${graceMs} ms; killing it`);
  for (const p of tree.reverse()) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  children.splice(children.indexOf(c), 1);
}

// ---------------------------------------------------------------- sandbox in-flight

interface PlatformRequest {
  route: string;
  start: number;
  end?: number;
  /** The sandbox's own record of the same request (for its prompt). */
  rec?: SandboxRequestRecord;
}
const platformRequests: PlatformRequest[] = [];
// The sandbox is the only HTTP server in this process: every server request is its.
dc.subscribe('http.server.request.start', (message) => {
  const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
  const route = `${request.method} ${(request.url ?? '').split('?')[0]}`;
  if (!PLATFORM_ROUTES.has(route)) return;
  const rec: PlatformRequest = { route, start: now() };
  platformRequests.push(rec);
  response.once('close', () => {
    rec.end = now();
  });
});

interface Concurrency {
  requests: number;
  peak: number;
  /** Time-weighted mean of requests in flight between `from` and `to`. */
  mean: number;
  durations: number[];
  firstStart: number;
  lastEnd: number;
  /** Mean in flight per whole `stepMs` from `from`. */
  perStep: number[];
}

function concurrencyOf(
  recs: PlatformRequest[],
  from: number,
  to: number,
  stepMs = 1000,
): Concurrency {
  const events: [number, number][] = [];
  for (const r of recs) {
    events.push([r.start, 1]);
    events.push([r.end ?? to, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let level = 0;
  let peak = 0;
  for (const [, d] of events) {
    level += d;
    peak = Math.max(peak, level);
  }
  const steps = Math.max(1, Math.ceil((to - from) / stepMs));
  const perStep = new Array<number>(steps).fill(0);
  let area = 0;
  for (const r of recs) {
    const a = Math.max(r.start, from);
    const b = Math.min(r.end ?? to, to);
    if (b <= a) continue;
    area += b - a;
    for (let k = Math.floor((a - from) / stepMs); k < steps && from + k * stepMs < b; k++) {
      const lo = Math.max(a, from + k * stepMs);
      const hi = Math.min(b, from + (k + 1) * stepMs);
      if (hi > lo) perStep[k]! += (hi - lo) / stepMs;
    }
  }
  return {
    requests: recs.length,
    peak,
    mean: area / Math.max(1, to - from),
    durations: recs.map((r) => (r.end ?? to) - r.start).sort((x, y) => x - y),
    firstStart: Math.min(...recs.map((r) => r.start)),
    lastEnd: Math.max(...recs.map((r) => r.end ?? to)),
    perStep,
  };
}

/**
 * How far apart the starts of each wave of `capacity` requests lie (p5 to p95,
 * in start order). The spread of the last wave is how long the final answers
 * trickle in; it grows from the ramp-up and from every cycle's jitter.
 */
function waveSpreads(recs: PlatformRequest[], capacity: number): string {
  const starts = recs.map((r) => r.start).sort((x, y) => x - y);
  const waves = Math.floor(starts.length / capacity);
  const spread = (k: number) => {
    const w = starts.slice(k * capacity, (k + 1) * capacity);
    return percentile(w, 95) - percentile(w, 5);
  };
  const shown = [...new Set([0, 1, 2, Math.floor(waves / 2), waves - 1])].filter(
    (k) => k >= 0 && k < waves,
  );
  return shown.map((k) => `wave ${k + 1} ${spread(k).toFixed(0)} ms`).join(', ');
}

/** Pairs our request records with the sandbox's own (same arrival order), for prompts. */
function attachRecords(): void {
  const theirs = sandbox.stats.requests.filter((r) => PLATFORM_ROUTES.has(`${r.method} ${r.path}`));
  const all = platformRequests;
  for (let i = 0; i < all.length && i < theirs.length; i++) all[i]!.rec = theirs[i];
}

interface Lags {
  /** Sub task result recorded (its `time`) minus the end of its last platform request. */
  settle: number[];
  /** Task final (completedAt) minus its last sub task's `time`. */
  finish: number[];
  /** Last sub task result recorded, epoch ms. */
  lastRecorded: number;
}

function lagsOf(recs: PlatformRequest[], r: PhaseResult): Lags {
  attachRecords();
  const endByPrompt = new Map<string, number>();
  for (const q of recs) {
    if (q.rec?.prompt !== undefined && q.end !== undefined) {
      endByPrompt.set(q.rec.prompt, Math.max(q.end, endByPrompt.get(q.rec.prompt) ?? 0));
    }
  }
  const settle: number[] = [];
  const lastOfTask = new Map<string, number>();
  let lastRecorded = 0;
  for (const sub of r.subs) {
    const end = endByPrompt.get(sub.prompt);
    if (end !== undefined && sub.time > 0) settle.push(sub.time - end);
    lastOfTask.set(sub.taskId, Math.max(sub.time, lastOfTask.get(sub.taskId) ?? 0));
    lastRecorded = Math.max(lastRecorded, sub.time);
  }
  const finish = r.tasks.map((x) => x.completedAt - (lastOfTask.get(x.id) ?? x.completedAt));
  return {
    settle: settle.sort((x, y) => x - y),
    finish: finish.sort((x, y) => x - y),
    lastRecorded,
  };
}

const dist = (v: number[]) =>
  `p50 ${percentile(v, 50).toFixed(0)} ms, p90 ${percentile(v, 90).toFixed(0)} ms, max ${(v[v.length - 1] ?? NaN).toFixed(0)} ms`;

// ---------------------------------------------------------------- HTTP

// ---------------------------------------------------------------- the run

const watchdog = setTimeout(() => {
  console.error(`bench: gave up after ${RUN_TIMEOUT_MS / 1000} s; killing every child`);
  for (const c of children) killTree(c, 'SIGKILL');
  process.exit(1);
}, RUN_TIMEOUT_MS);
watchdog.unref();

const suffix = randomBytes(3).toString('hex');
const baseEnv: Record<string, string> = {
  TRANSPORTER: natsUrl,
  MONGO_URL: mongoUrl,
  MONGO_DB: `bench_pipeline_${suffix}`,
  NAMESPACE: `pipeline-${suffix}`,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_RPS: '1000000',
  RATE_LIMIT_BURST: '1000000',
  MAX_UNFINISHED_SUBTASKS: '100000000',
  DEFAULT_PLATFORM_CONCURRENCY: '1000',
};

function serve(name: string, env: Record<string, string>): Child {
  const nodeId = `${name}-${suffix}`;
  const c: Child = {
    name,
    nodeId,
    p: startProcess(TRACE ? 'bench/pipeline.node.ts' : 'bin/serve.ts', [], {
      ...baseEnv,
      ...env,
      NODE_ID: nodeId,
    }),
  };
  children.push(c);
  return c;
}

async function ready(c: Child): Promise<RegExpMatchArray> {
  return c.p.waitFor(new RegExp(`READY node=${c.nodeId} \\S+(?: api=(\\S+))?`), 60_000);
}

/** Until the probe broker sees every node id (with its services) over NATS. */
async function discovered(probe: ServiceBroker, nodeIds: string[], gone: string[] = []) {
  const deadline = now() + 30_000;
  for (;;) {
    const live = new Set(
      probe.registry.nodes
        .list({ onlyAvailable: true, withServices: false })
        .map((n: { id: string }) => n.id),
    );
    if (nodeIds.every((id) => live.has(id)) && gone.every((id) => !live.has(id))) return;
    if (now() > deadline) throw new Error(`nodes not discovered: want ${nodeIds.join(', ')}`);
    await sleep(100);
  }
}

interface PhaseResult {
  taskIds: string[];
  submitStart: number;
  submitEnd: number;
  submitMs: number[];
  /** When each submit was answered (epoch ms). */
  submitDone: number[];
  /** When the poller saw every task final. */
  observedEnd: number;
  /** Latest task completedAt (the exact moment the last task became final). */
  finalAt: number;
  taskStatuses: Record<string, number>;
  subStatuses: Record<string, number>;
  retried: number;
  errors: string[];
  processing: { t: number; n: number; ms: number }[];
  tasks: { id: string; completedAt: number }[];
  subs: { taskId: string; prompt: string; time: number; node: string }[];
}

async function runPhase(opts: {
  base: string;
  token: string;
  db: mongoose.Connection;
  platform: string;
  subtasks: number;
  label: string;
  deadlineMs: number;
  onSample?: () => Promise<void>;
}): Promise<PhaseResult> {
  const subtasksCol = opts.db.collection('subtasks');
  const tasksCol = opts.db.collection('tasks');
  const processing: PhaseResult['processing'] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const t0 = now();
      const n = await subtasksCol.countDocuments({ status: 'processing' }).catch(() => NaN);
      processing.push({ t: t0, n, ms: now() - t0 });
      await opts.onSample?.();
      await sleep(Math.max(0, SAMPLE_MS - (now() - t0)));
    }
  })();

  const taskIds: string[] = [];
  const submitMs: number[] = [];
  const submitDone: number[] = [];
  const submitStart = now();
  try {
    // SUBMITTERS clients submit side by side, as a team's scripts would.
    const sizes: number[] = [];
    for (let left = opts.subtasks; left > 0; left -= PROMPTS_PER_TASK)
      sizes.push(Math.min(PROMPTS_PER_TASK, left));
    const ids: string[] = new Array<string>(sizes.length);
    let next = 0;
    const submitter = async () => {
      for (let k = next++; k < sizes.length; k = next++) ids[k] = await submitOne(k, sizes[k]!);
    };
    const submitOne = async (k: number, n: number): Promise<string> => {
      const body = {
        monitorKeywords: 'Acme, 阿克米',
        prompts: Array.from(
          { length: n },
          (_, i) => `${opts.label} task ${k + 1}, question ${i + 1}: which CRM suits a small team?`,
        ),
        platforms: [{ platform: opts.platform, mode: 'standard', screenshot: 0 }],
      };
      const t0 = now();
      const res = await request(opts.base, 'POST', SUBMIT_PATH, opts.token, body);
      submitMs.push(now() - t0);
      submitDone.push(now());
      if (res.status !== 200 || res.body?.data?.totalTask !== n) {
        throw new Error(`submit ${k} failed: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return res.body.data.taskId as string;
    };
    await Promise.all(Array.from({ length: Math.min(SUBMITTERS, sizes.length) }, submitter));
    taskIds.push(...ids);
    const submitEnd = now();

    // Every task final, as a client sees it: no pending and no processing task left.
    const deadline = submitStart + opts.deadlineMs;
    let observedEnd: number | undefined;
    while (observedEnd === undefined) {
      const [p, q] = await Promise.all(
        ['pending', 'processing'].map((st) =>
          request(opts.base, 'GET', `${LIST_PATH}?status=${st}&size=1`, opts.token),
        ),
      );
      if (p!.status !== 200 || q!.status !== 200)
        throw new Error(`list failed: ${p!.status} ${q!.status}`);
      if (p!.body.data.total === 0 && q!.body.data.total === 0) observedEnd = now();
      else if (now() > deadline)
        throw new Error(
          `${opts.label}: not finished after ${s(opts.deadlineMs)}: ${p!.body.data.total} pending, ${q!.body.data.total} processing tasks`,
        );
      else await sleep(POLL_MS);
    }
    sampling = false;
    await sampler;

    const tasks = await tasksCol
      .find({ _id: { $in: taskIds } } as never, { projection: { status: 1, completedAt: 1 } })
      .toArray();
    const taskStatuses: Record<string, number> = {};
    let finalAt = 0;
    for (const t of tasks) {
      taskStatuses[t.status] = (taskStatuses[t.status] ?? 0) + 1;
      finalAt = Math.max(finalAt, Number(t.completedAt ?? 0));
    }
    const subs = await subtasksCol
      .find(
        { taskId: { $in: taskIds } },
        {
          projection: {
            status: 1,
            attempts: 1,
            errorMessage: 1,
            prompt: 1,
            time: 1,
            taskId: 1,
            lastNode: 1,
          },
        },
      )
      .toArray();
    const subStatuses: Record<string, number> = {};
    let retried = 0;
    const errors = new Set<string>();
    for (const d of subs) {
      subStatuses[d.status] = (subStatuses[d.status] ?? 0) + 1;
      if (Number(d.attempts) > 1) retried += 1;
      if (d.errorMessage && errors.size < 5) errors.add(String(d.errorMessage));
    }
    return {
      taskIds,
      submitStart,
      submitEnd,
      submitMs,
      submitDone,
      observedEnd,
      finalAt,
      taskStatuses,
      subStatuses,
      retried,
      errors: [...errors],
      processing,
      tasks: tasks.map((x) => ({ id: String(x._id), completedAt: Number(x.completedAt ?? 0) })),
      subs: subs.map((d) => ({
        taskId: String(d.taskId),
        prompt: String(d.prompt),
        time: Number(d.time ?? 0),
        node: String(d.lastNode),
      })),
    };
  } finally {
    sampling = false;
    await sampler;
  }
}

const fmtCounts = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

/** Server processes (BENCH_DB_PIDS="mongo-server:123 nats:456" from pipeline.sh). */
const dbPids = (process.env.BENCH_DB_PIDS ?? '')
  .split(/\s+/)
  .filter(Boolean)
  .map((pair) => {
    const [name, pid] = pair.split(':');
    return { name: name!, pid: Number(pid) };
  })
  .filter((d) => Number.isInteger(d.pid) && procStat(d.pid));

function cpuSnapshot(list: Child[]) {
  return {
    at: now(),
    self: process.cpuUsage(),
    machine: machineTicks(),
    children: new Map(list.map((c) => [c.name, treeTicks(c.p.child.pid!)])),
    db: new Map(dbPids.map((d) => [d.name, treeTicks(d.pid)])),
  };
}

function cpuReport(a: ReturnType<typeof cpuSnapshot>, b: ReturnType<typeof cpuSnapshot>): string {
  const parts: string[] = [];
  for (const [name, t] of b.children) {
    const before = a.children.get(name);
    if (before !== undefined) parts.push(`${name} ${s(ticksMs(t - before))}`);
  }
  for (const [name, t] of b.db) parts.push(`${name} ${s(ticksMs(t - a.db.get(name)!))}`);
  const selfMs = (b.self.user - a.self.user + b.self.system - a.self.system) / 1000; /* µs → ms */
  parts.push(`bench process (sandbox, client, samplers) ${s(selfMs)}`);
  const busy = b.machine.busy - a.machine.busy;
  const total = b.machine.total - a.machine.total;
  let ours = selfMs;
  for (const [name, t] of b.children) {
    const before = a.children.get(name);
    if (before !== undefined) ours += ticksMs(t - before);
  }
  for (const [name, t] of b.db) ours += ticksMs(t - a.db.get(name)!);
  const cores = availableParallelism();
  return (
    `${parts.join(', ')}; machine ${((busy / Math.max(1, total)) * 100).toFixed(0)}% busy ` +
    `of ${cores} cores over ${s(b.at - a.at)}, of which processes outside this benchmark ` +
    `${s(Math.max(0, ticksMs(busy) - ours))}`
  );
}

function childWarnings(): string[] {
  const lines: string[] = [];
  for (const c of children) {
    for (const line of c.p.output().split('\n')) {
      if (/\b(WARN|ERROR|FATAL)\b/.test(line)) lines.push(`${c.name}: ${line.slice(0, 300)}`);
    }
  }
  return lines;
}

interface TraceStats {
  node: string;
  windowMs: number;
  samples: Record<string, { n: number; p50: number; p90: number; max: number; sum: number }>;
  firsts: Record<string, number>;
  eventLoopDelay: { p50: number; p99: number; max: number };
  dispatch?: {
    passes: number;
    passBusyMs: number;
    passStartGap?: { p50: number; p90: number; max: number };
    freeSlotMsWhileQueued: number;
    sampledMs: number;
  };
}

async function traceAll(probe: ServiceBroker, list: Child[], action: 'reset' | 'stats') {
  return Promise.all(
    list.map((c) =>
      probe.call<TraceStats, object>(`benchTrace.${action}`, {}, { nodeID: c.nodeId }),
    ),
  );
}

/** The timing probes of every node, slowest totals first. */
function printTrace(stats: TraceStats[], capacity: number, from: number): void {
  out('-- timing probes (BENCH_TRACE=1): name n p50/p90/max ms, per node');
  // The ramp-up: when each step first happened, after the first submit.
  const first = (name: string) =>
    Math.min(...stats.map((st) => st.firsts[name] ?? Infinity)) - from;
  const steps = [
    'handle tasks.submit',
    'event task.created',
    'dispatch pass (with picks)',
    'ledger.claim',
    'handle crawler.accept',
    'call tasks.settleBatch',
  ];
  out(
    `ramp-up, first start after the first submit: ${steps
      .map((n) => `${n} +${first(n).toFixed(0)} ms`)
      .join(', ')}`,
  );
  for (const st of stats) {
    const e = st.eventLoopDelay;
    out(
      `${st.node}: event loop delay p50 ${e.p50.toFixed(1)} ms, p99 ${e.p99.toFixed(1)} ms, max ${e.max.toFixed(0)} ms`,
    );
    if (st.dispatch) {
      const d = st.dispatch;
      const g = d.passStartGap;
      out(
        `  dispatch: ${d.passes} passes, a pass running ${((d.passBusyMs / st.windowMs) * 100).toFixed(0)}% of the time` +
          (g
            ? `, gap between pass starts p50 ${g.p50.toFixed(0)}/p90 ${g.p90.toFixed(0)}/max ${g.max.toFixed(0)} ms`
            : '') +
          `; free slots while work was queued: ${(d.freeSlotMsWhileQueued / Math.max(1, d.sampledMs)).toFixed(1)} of ${capacity} on average`,
      );
    }
    const rows = Object.entries(st.samples).sort((a, b) => b[1].sum - a[1].sum);
    for (const [name, v] of rows.slice(0, 14)) {
      const count = name.startsWith('leases per pass');
      out(
        `  ${name}: n ${v.n}, ${v.p50.toFixed(count ? 0 : 1)}/${v.p90.toFixed(count ? 0 : 1)}/${v.max.toFixed(count ? 0 : 1)}`,
      );
    }
  }
}

let failed = false;
let admin: mongoose.Connection | undefined;
let probe: ServiceBroker | undefined;
const sandbox = await startSandboxServer({ latencyMs: LATENCY_MS, streamWrites: STREAM_WRITES });
const apiCapacity = NODES * CAPACITY;
const out = (line = '') => console.log(line);
try {
  admin = await mongoose
    .createConnection(mongoUrl, { dbName: baseEnv.MONGO_DB, serverSelectionTimeoutMS: 10_000 })
    .asPromise();
  const info = await admin.db!.admin().command({ buildInfo: 1 });
  const server =
    'ferretdbVersion' in info
      ? `FerretDB (MongoDB ${String(info.version)} wire)`
      : `MongoDB-wire server reporting version ${String(info.version)}`;
  const env = { SANDBOX_URL: sandbox.url };

  const front = serve('api', { ...env, SERVICES: 'api,tasks,users', PORT: '0' });
  const scheduler = serve('scheduler', { ...env, SERVICES: 'scheduler' });
  const crawlerEnv = {
    ...env,
    SERVICES: 'crawler',
    CRAWLER_CAPACITY: String(CAPACITY),
    CRAWLER_CHANNELS: 'api',
    CRAWLER_PREFETCH: String(PREFETCH),
  };
  const crawlers = Array.from({ length: NODES }, (_, i) => serve(`crawler${i + 1}`, crawlerEnv));
  const [, apiUrl] = await ready(front);
  await Promise.all([scheduler, ...crawlers].map(ready));
  const base = apiUrl!;

  probe = await createBroker(
    loadConfig({ ...baseEnv, SERVICES: 'api', NODE_ID: `bench-${suffix}`, LOG_LEVEL: 'warn' }),
    [],
  );
  await probe.start();
  await discovered(
    probe,
    children.map((c) => c.nodeId),
  );
  // The scheduler holds the leader lock (it takes it in its `started`).
  const lock = await admin.collection('locks').findOne({ _id: 'scheduler' } as never);
  if (lock?.owner !== scheduler.nodeId) throw new Error(`no active scheduler: ${String(lock)}`);

  const created = await runProcess(
    'bin/admin.ts',
    ['create-user', '--name', 'bench', '--json'],
    baseEnv,
  );
  if (created.code !== 0) throw new Error(`create-user failed: ${created.output}`);
  const { apiKey } = JSON.parse(created.output.trim()) as { apiKey: string };
  let token: string | undefined;
  for (let i = 0; i < 100 && !token; i++) {
    const r = await request(base, 'POST', '/api/business/auth/token', undefined, { apiKey });
    if (r.status === 200) token = r.body.data.accessToken as string;
    else await sleep(100);
  }
  if (!token) throw new Error('no access token');
  // Let every node's registry settle (the scheduler sees the crawler nodes' metadata).
  await sleep(1000);
  phase('start cluster, user and token');
  console.error(
    `bench: api ${base}, sandbox ${sandbox.url}, database ${baseEnv.MONGO_DB}, ` +
      `namespace ${baseEnv.NAMESPACE}, ${server}`,
  );

  // a) API channel, after a warm-up batch: every process (the JVM of the
  // MongoDB-wire server above all) compiles its hot paths during its first
  // thousand or so operations, which a running service has long done.
  if (WARMUP > 0) {
    await runPhase({
      base,
      token,
      db: admin,
      platform: 'sandbox',
      subtasks: WARMUP,
      label: 'warm-up',
      deadlineMs: 120_000,
    });
    phase(`warm-up (${WARMUP} sub tasks, not measured)`);
  }
  if (TRACE) await traceAll(probe, children, 'reset');
  const schedPid = scheduler.p.child.pid!;
  const sched0 = ownTicks(schedPid);
  const cpu0 = cpuSnapshot(children);
  const reqFrom = platformRequests.length;
  const a = await runPhase({
    base,
    token,
    db: admin,
    platform: 'sandbox',
    subtasks: SUBTASKS,
    label: 'pipeline api',
    deadlineMs: Math.max(120_000, ((SUBTASKS * LATENCY_MS) / apiCapacity) * 10),
  });
  const sched1 = ownTicks(schedPid);
  const cpu1 = cpuSnapshot(children);
  phase(`API channel run (${SUBTASKS} sub tasks)`);

  const wall = a.finalAt - a.submitStart;
  const ideal = (SUBTASKS * LATENCY_MS) / apiCapacity;
  const ratio = ideal / wall;
  const conc = concurrencyOf(platformRequests.slice(reqFrom), a.submitStart, a.finalAt);
  const leasedPeak = Math.max(0, ...a.processing.map((p) => p.n).filter(Number.isFinite));
  const sampleMs = a.processing.map((p) => p.ms).sort((x, y) => x - y);
  const schedMs = ticksMs(sched1 - sched0);
  const meanDur = conc.durations.reduce((x, y) => x + y, 0) / Math.max(1, conc.durations.length);
  const cycle = (wall * apiCapacity) / SUBTASKS;
  const submitSorted = [...a.submitMs].sort((x, y) => x - y);

  out('');
  out('== a) API channel (sandbox)');
  out(
    `sub tasks ${SUBTASKS} (${a.taskIds.length} tasks of up to ${PROMPTS_PER_TASK} prompts x 1 platform), ` +
      `capacity ${NODES} nodes x ${CAPACITY} = ${apiCapacity} (prefetch ${PREFETCH} each), ` +
      `platform latency ${LATENCY_MS} ms, after a warm-up of ${WARMUP} sub tasks, ` +
      `${STREAM_WRITES || 'one write per piece of'} writes per answer stream`,
  );
  out(
    `wall time ${s(wall)} (first submit to last task final; seen by the poller at ${s(a.observedEnd - a.submitStart)})`,
  );
  out(`ideal time ${s(ideal)} (sub tasks x latency / capacity)`);
  out(`ratio ideal/wall ${ratio.toFixed(3)} (target >= 0.95) ${ratio >= 0.95 ? 'MET' : 'NOT MET'}`);
  out(
    `peak concurrency ${conc.peak} platform requests in flight at the sandbox (exact), ` +
      `${leasedPeak} sub tasks processing in MongoDB (sampled every ${SAMPLE_MS} ms, ` +
      `${a.processing.length} samples, count p50 ${percentile(sampleMs, 50).toFixed(1)} ms)`,
  );
  out(
    `scheduler CPU ${(schedMs / SUBTASKS).toFixed(3)} ms per sub task ` +
      `(${s(schedMs)} over the run, /proc utime+stime, CLK_TCK ${CLK_TCK})`,
  );
  out(`final statuses: tasks ${fmtCounts(a.taskStatuses)}; sub tasks ${fmtCounts(a.subStatuses)}`);
  out('-- where the time goes');
  out(
    `submits: ${a.submitMs.length} by ${SUBMITTERS} clients side by side in ${s(a.submitEnd - a.submitStart)}, ` +
      `p50 ${percentile(submitSorted, 50).toFixed(0)} ms, max ${submitSorted[submitSorted.length - 1]!.toFixed(0)} ms`,
  );
  out(
    `platform requests ${conc.requests}: duration p50 ${percentile(conc.durations, 50).toFixed(0)} ms, ` +
      `p99 ${percentile(conc.durations, 99).toFixed(0)} ms, max ${conc.durations[conc.durations.length - 1]!.toFixed(0)} ms, ` +
      `mean ${meanDur.toFixed(0)} ms (asked ${LATENCY_MS} ms)`,
  );
  out(
    `mean in flight ${conc.mean.toFixed(1)} of ${apiCapacity} (${((conc.mean / apiCapacity) * 100).toFixed(1)}% utilisation); ` +
      `mean slot cycle ${cycle.toFixed(0)} ms = request ${meanDur.toFixed(0)} ms + ` +
      `${(cycle - meanDur).toFixed(0)} ms between requests (claim, send, report, settle, redispatch)`,
  );
  // How fast the first full wave started (every slot's first request).
  const firstWave = platformRequests
    .slice(reqFrom, reqFrom + apiCapacity)
    .map((r) => r.start - a.submitStart)
    .sort((x, y) => x - y);
  out(
    `first ${firstWave.length} platform requests started after the first submit: ` +
      [10, 25, 50, 75, 90, 100]
        .map((p) => `p${p} ${percentile(firstWave, p).toFixed(0)} ms`)
        .join(', '),
  );
  out(
    `first platform request ${(conc.firstStart - a.submitStart).toFixed(0)} ms after the first submit; ` +
      `last one ended ${(a.finalAt - conc.lastEnd).toFixed(0)} ms before the last task was final`,
  );
  const lagA = lagsOf(platformRequests.slice(reqFrom), a);
  out(
    `result recorded after its platform request ended: ${dist(lagA.settle)}; ` +
      `last result recorded ${(lagA.lastRecorded - conc.lastEnd).toFixed(0)} ms after the last request ended`,
  );
  out(`task final after its last result: ${dist(lagA.finish)}`);
  // A node left holding waiting leases while another has run out lengthens the last wave.
  const lastByNode = new Map<string, number>();
  for (const sub of a.subs)
    lastByNode.set(sub.node, Math.max(lastByNode.get(sub.node) ?? 0, sub.time));
  const nodeName = (id: string) => children.find((c) => c.nodeId === id)?.name ?? id;
  out(
    `last result per crawler node: ${[...lastByNode]
      .map(([id, at]) => `${nodeName(id)} ${s(at - a.submitStart)}`)
      .join(', ')}`,
  );
  out(`in flight per second: ${conc.perStep.map((v) => v.toFixed(0)).join(' ')}`);
  out(
    `start spread per wave (p5-p95): ${waveSpreads(platformRequests.slice(reqFrom), apiCapacity)}`,
  );
  // The ramp-up in finer steps: work starts while the batch is still being submitted.
  const step = 250;
  const ramp = concurrencyOf(
    platformRequests.slice(reqFrom),
    a.submitStart,
    a.submitStart + 4000,
    step,
  );
  const stored = ramp.perStep.map(
    (_, k) =>
      a.submitDone.filter((t) => t < a.submitStart + (k + 1) * step).length * PROMPTS_PER_TASK,
  );
  out(
    `ramp-up per ${step} ms, in flight (sub tasks stored): ${ramp.perStep
      .map((v, k) => `${v.toFixed(0)} (${Math.min(stored[k]!, SUBTASKS)})`)
      .join(' ')}`,
  );
  const procPerSecond: number[] = [];
  for (const p of a.processing) {
    const k = Math.floor((p.t - a.submitStart) / 1000);
    procPerSecond[k] = Math.max(procPerSecond[k] ?? 0, Number.isFinite(p.n) ? p.n : 0);
  }
  out(
    `processing in MongoDB, max per second: ${Array.from(procPerSecond, (v) => v ?? '-').join(' ')}`,
  );
  out(
    `retried sub tasks ${a.retried}${a.errors.length ? `; errors: ${a.errors.join(' | ')}` : ''}`,
  );
  out(`CPU during the run: ${cpuReport(cpu0, cpu1)}`);
  if (TRACE) printTrace(await traceAll(probe, children, 'stats'), apiCapacity, a.submitStart);
  if (a.subStatuses.completed !== SUBTASKS) failed = true;

  // b) web channel: replace the API crawler nodes with web ones.
  if (!SKIP_WEB) {
    const oldIds = crawlers.map((c) => c.nodeId);
    await Promise.all(crawlers.map((c) => stopChild(c)));
    const webEnv = {
      ...env,
      SERVICES: 'crawler',
      CRAWLER_CAPACITY: String(WEB_CAPACITY),
      CRAWLER_CHANNELS: 'web',
    };
    const web = Array.from({ length: NODES }, (_, i) => serve(`web${i + 1}`, webEnv));
    await Promise.all(web.map(ready));
    await discovered(
      probe,
      web.map((c) => c.nodeId),
      oldIds,
    );
    await sleep(1000);
    const memOf = () => sumMemory(web.map((c) => treeMemory(c.p.child.pid!)));
    const idle = memOf();
    phase('start web crawler nodes');

    const memSamples: { m: Memory; running: number }[] = [];
    let lastMem = 0;
    const onSample = async () => {
      if (now() - lastMem < 1000) return;
      lastMem = now();
      const running = (
        await Promise.all(
          web.map((c) =>
            probe!
              .call<{ running: number }, object>('crawler.status', {}, { nodeID: c.nodeId })
              .then((r) => r.running)
              .catch(() => NaN),
          ),
        )
      ).reduce((x, y) => x + y, 0);
      memSamples.push({ m: memOf(), running });
    };
    const webCapacity = NODES * WEB_CAPACITY;
    const reqFromWeb = platformRequests.length;
    const cpuW0 = cpuSnapshot(children);
    const b = await runPhase({
      base,
      token,
      db: admin,
      platform: 'sandbox-web',
      subtasks: WEB_SUBTASKS,
      label: 'pipeline web',
      deadlineMs: Math.max(180_000, ((WEB_SUBTASKS * LATENCY_MS) / webCapacity) * 20),
      onSample,
    });
    const cpuW1 = cpuSnapshot(children);
    await sleep(2000);
    const warm = memOf();
    phase(`web channel run (${WEB_SUBTASKS} sub tasks)`);

    const wallW = b.finalAt - b.submitStart;
    const perMin = (WEB_SUBTASKS / wallW) * 60_000;
    const idealPerMin = (webCapacity * 60_000) / Math.max(1, LATENCY_MS);
    const concW = concurrencyOf(platformRequests.slice(reqFromWeb), b.submitStart, b.finalAt);
    const maxRunning = Math.max(0, ...memSamples.map((m) => m.running).filter(Number.isFinite));
    const full = memSamples.filter((m) => m.running === maxRunning && maxRunning > 0);
    const med = (f: (m: Memory) => number) =>
      percentile(
        full.map((x) => f(x.m)).sort((p, q) => p - q),
        50,
      );
    const loadedRss = med((m) => m.rss);
    const loadedPss = med((m) => m.pss);
    const meanDurW =
      concW.durations.reduce((x, y) => x + y, 0) / Math.max(1, concW.durations.length);

    out('');
    out('== b) web channel (sandbox-web, Chromium)');
    out(
      `sub tasks ${WEB_SUBTASKS}, capacity ${NODES} nodes x ${WEB_CAPACITY} pages = ${webCapacity}, ` +
        `platform latency ${LATENCY_MS} ms`,
    );
    out(
      `sub tasks per minute ${perMin.toFixed(1)} (wall ${s(wallW)}; ideal ${idealPerMin.toFixed(0)}/min ` +
        `= capacity x 60 s / latency; ratio ${(perMin / idealPerMin).toFixed(3)})`,
    );
    out(
      `memory per page ${mb((loadedRss - idle.rss) / Math.max(1, maxRunning))} RSS, ` +
        `${mb((loadedPss - idle.pss) / Math.max(1, maxRunning))} PSS ` +
        `(crawler processes + Chromium, under load with ${maxRunning} pages open minus idle before Chromium started)`,
    );
    out(
      `marginal memory per page ${mb((loadedRss - warm.rss) / Math.max(1, maxRunning))} RSS, ` +
        `${mb((loadedPss - warm.pss) / Math.max(1, maxRunning))} PSS (minus idle with Chromium running, no page)`,
    );
    out(
      `memory: idle ${mb(idle.rss)} RSS / ${mb(idle.pss)} PSS (${idle.processes} processes); ` +
        `loaded (median of ${full.length} samples at ${maxRunning} pages) ${mb(loadedRss)} RSS / ${mb(loadedPss)} PSS, ` +
        `${med((m) => m.processes)} processes, ${med((m) => m.renderers)} renderers; ` +
        `after the run ${mb(warm.rss)} RSS / ${mb(warm.pss)} PSS (${warm.processes} processes, ${warm.renderers} renderers)`,
    );
    out(
      `peak concurrency ${concW.peak} /web/chat streams at the sandbox; chat stream p50 ` +
        `${percentile(concW.durations, 50).toFixed(0)} ms, mean ${meanDurW.toFixed(0)} ms; ` +
        `mean in flight ${concW.mean.toFixed(1)}`,
    );
    out(
      `final statuses: tasks ${fmtCounts(b.taskStatuses)}; sub tasks ${fmtCounts(b.subStatuses)}`,
    );
    out(
      `retried sub tasks ${b.retried}${b.errors.length ? `; errors: ${b.errors.join(' | ')}` : ''}`,
    );
    out(`CPU during the run: ${cpuReport(cpuW0, cpuW1)}`);
    if (b.subStatuses.completed !== WEB_SUBTASKS) failed = true;
  }

  const warnings = childWarnings();
  out('');
  out(
    `(${server}; NATS ${natsUrl}; Node ${process.version}; ${availableParallelism()} cores; ` +
      `child warnings ${warnings.length})`,
  );
  for (const w of warnings.slice(0, 10)) console.error(`bench: ${w}`);
  if (failed) console.error('bench: not every sub task completed');
} catch (err) {
  failed = true;
  console.error(`bench failed: ${(err as Error).stack ?? String(err)}`);
  for (const c of children) {
    console.error(`---- ${c.name} output (last 3000 chars)\n${c.p.output().slice(-3000)}`);
  }
} finally {
  await Promise.all([...children].map((c) => stopChild(c)));
  await probe?.stop().catch(() => undefined);
  await admin?.dropDatabase().catch(() => undefined);
  await admin?.close();
  await sandbox.close();
  phase('stop and drop database');
  console.error(`bench: done in ${((now() - started) / 1000).toFixed(1)} s`);
  clearTimeout(watchdog);
}
process.exit(failed ? 1 : 0);
