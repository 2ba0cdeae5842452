/**
 * MCP benchmark: what the MCP layer adds to a read, side by side with the REST
 * call that reads the same thing, on the embedded default in this process.
 * One finished task of BENCH_SUBTASKS sandbox sub tasks; then BENCH_ROUNDS
 * timed pairs, each a REST request and the matching MCP `tools/call` (a plain
 * JSON-RPC POST to /mcp, as any client sends it), in alternating order so
 * the machine's noise falls on both alike:
 *   status:  GET …/task/status/{id}  vs  task_status
 *   results: GET …/task/result/{id}  vs  task_results (one page of all of them)
 * Prints p50 and p99 of each and the p50 overhead (target < 2 ms), then the
 * CPU this process spent per request on each side (client, api and services
 * are all here; the database is not), which a loaded machine inflates less.
 * Run through bench/mcp.sh, which starts the MongoDB-wire server.
 */
import { performance } from 'node:perf_hooks';
import { PATHS, pathTo } from '../services/shared/contracts/http-paths.js';
import { envInt, percentile, request } from './common.js';
import { startBenchApi } from './embedded-api.js';

const OVERHEAD_TARGET_MS = 2;
const WARM_UP = 30;

const mongoUrl = process.env.BENCH_MONGO_URL;
if (!mongoUrl) {
  console.error('BENCH_MONGO_URL is not set: run `bash bench/mcp.sh` (it starts the server)');
  process.exit(2);
}
const rounds = envInt('BENCH_ROUNDS', 500, 1);
const subTasks = envInt('BENCH_SUBTASKS', 20, 1);

// Every service: the read task's sub tasks run on the sandbox.
const api = await startBenchApi(mongoUrl, 'mcp', { SERVICES: 'all', SANDBOX_LATENCY_MS: '1' });
const { base, token } = api;

try {
  const taskId = await finishedTask(token);

  let id = 0;
  const mcp = async (name: string, args: object) => {
    const res = await fetch(base + PATHS.MCP, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
    });
    const body = (await res.json()) as { result?: { isError?: boolean } };
    if (res.status !== 200 || !body.result || body.result.isError) {
      throw new Error(`${name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
  };
  const rest = async (path: string) => {
    const r = await request(base, 'GET', path, token);
    if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  };

  console.log('== figures');
  await pair(
    'status',
    () => rest(pathTo(PATHS.TASK_STATUS, { taskId })),
    () => mcp('task_status', { taskId }),
  );
  await pair(
    `results (${subTasks} sub tasks)`,
    () => rest(pathTo(PATHS.TASK_RESULT, { taskId })),
    () => mcp('task_results', { taskId, limit: Math.min(subTasks, 50) }),
  );
} finally {
  await api.stop();
}

async function finishedTask(token: string): Promise<string> {
  const prompts = Array.from({ length: subTasks }, (_, i) => `which CRM suits team ${i}`);
  const submitted = await request(base, 'POST', PATHS.TASK_SUBMIT, token, {
    prompts,
    platforms: [{ platform: 'sandbox', mode: 'standard' }],
    monitorKeywords: 'Acme, Globex',
  });
  if (submitted.status !== 200) throw new Error(`submit: ${JSON.stringify(submitted.body)}`);
  const taskId = submitted.body.data.taskId as string;
  const until = Date.now() + 120_000;
  for (;;) {
    const s = await request(base, 'GET', pathTo(PATHS.TASK_STATUS, { taskId }), token);
    if (s.body.data.status === 'completed') return taskId;
    if (Date.now() > until) throw new Error(`task not finished: ${s.body.data.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Timed pairs in alternating order; prints both distributions and the p50 overhead. */
async function pair(what: string, restCall: () => Promise<void>, mcpCall: () => Promise<void>) {
  const times = { rest: [] as number[], mcp: [] as number[] };
  const cpuMs = { rest: 0, mcp: 0 };
  const timed = async (side: 'rest' | 'mcp', fn: () => Promise<void>) => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    times[side].push(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    cpuMs[side] += (cpu.user + cpu.system) / 1000;
  };
  for (let i = 0; i < WARM_UP; i += 1) await Promise.all([restCall(), mcpCall()]);
  for (let i = 0; i < rounds; i += 1) {
    if (i % 2 === 0) {
      await timed('rest', restCall);
      await timed('mcp', mcpCall);
    } else {
      await timed('mcp', mcpCall);
      await timed('rest', restCall);
    }
  }
  const p = (xs: number[], q: number) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      q,
    );
  const overhead = p(times.mcp, 50) - p(times.rest, 50);
  const f = (n: number) => `${n.toFixed(2)} ms`;
  console.log(
    `${what}: REST p50 ${f(p(times.rest, 50))}, p99 ${f(p(times.rest, 99))}; ` +
      `MCP p50 ${f(p(times.mcp, 50))}, p99 ${f(p(times.mcp, 99))}; ` +
      `overhead at p50 ${f(overhead)} (target < ${OVERHEAD_TARGET_MS} ms: ${overhead < OVERHEAD_TARGET_MS ? 'met' : 'missed'}) over ${rounds} pairs`,
  );
  const perRequest = { rest: cpuMs.rest / rounds, mcp: cpuMs.mcp / rounds };
  console.log(
    `${what}: CPU of this process per request: REST ${f(perRequest.rest)}, MCP ${f(perRequest.mcp)}; ` +
      `overhead ${f(perRequest.mcp - perRequest.rest)}`,
  );
}
