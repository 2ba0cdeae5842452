/**
 * Pipeline benchmark: a real cluster over NATS, each node a child process as
 * `npm run serve` starts it (an api/tasks/users node, a scheduler node and
 * BENCH_NODES crawler nodes), on its own database and namespace, with ONE
 * sandbox stand-in in this process that every crawler node shares
 * (SANDBOX_URL), so that it sees every platform request and can count how many
 * are in flight.
 *   a) API channel: BENCH_SUBTASKS sub tasks on `sandbox` after an unmeasured
 *      warm-up batch: wall time (first submit to every task final), the ideal
 *      (sub tasks × latency / capacity), their ratio (target >= 0.95), peak
 *      concurrency, scheduler CPU per sub task and where the time goes.
 *   b) web channel: BENCH_WEB_SUBTASKS on `sandbox-web`, crawler nodes of
 *      BENCH_WEB_CAPACITY Chromium pages: sub tasks per minute and memory per
 *      page. BENCH_SKIP_WEB=1 skips it.
 * Run through bench/pipeline.sh, which starts NATS and the MongoDB-wire server
 * and passes BENCH_NATS_URL, BENCH_MONGO_URL and BENCH_DB_PIDS. The knobs and
 * their defaults are in bench/pipeline/options.ts; BENCH_TRACE=1 runs the nodes
 * with Moleculer's tracing and the MongoDB driver's command monitoring
 * (bench/pipeline/trace/). Figures go to stdout, progress to stderr.
 */
import { availableParallelism } from 'node:os';
import { runBench } from './pipeline/bench-run.js';
import { cpuReport, cpuSnapshot } from './pipeline/cpu.js';
import { idealMs } from './pipeline/figures.js';
import { runPhase } from './pipeline/load.js';
import { pipelineOptions } from './pipeline/options.js';
import { CLK_TCK, ownTicks } from './pipeline/procfs.js';
import { apiReport } from './pipeline/report-api.js';
import { startPlatformStandIn } from './pipeline/sandbox.js';
import { startCluster } from './pipeline/setup.js';
import { printTrace, traceAll } from './pipeline/trace/report.js';
import { runWebPhase, webReport } from './pipeline/web.js';

/** Whole-run ceiling: every node is killed and the process exits non-zero. */
const RUN_TIMEOUT_MS = 15 * 60_000;

const options = pipelineOptions();
await runBench(
  options,
  { script: 'bench/pipeline.sh', timeoutMs: RUN_TIMEOUT_MS, trace: options?.trace },
  async (run, o) => {
    const { cluster, db, server, timer, out } = run;
    const sandbox = await startPlatformStandIn(o.latencyMs, o.streamWrites);
    run.cleanup(() => sandbox.close());
    const c = await startCluster(o, cluster, db, sandbox.url, (p) => run.cleanup(() => p.stop()));
    timer.phase('start cluster, user and token');
    console.error(
      `bench: api ${c.base}, sandbox ${sandbox.url}, database ${cluster.env.MONGO_DB}, ` +
        `namespace ${cluster.env.NAMESPACE}, ${server}`,
    );
    const phaseInput = {
      base: c.base,
      token: c.token,
      db,
      submitters: o.submitters,
      sampleMs: o.sampleMs,
      pollMs: o.pollMs,
    };
    const apiCapacity = o.nodes * o.capacity;

    // a) API channel, after a warm-up batch: every process (the JVM of the
    // MongoDB-wire server above all) compiles its hot paths during its first
    // thousand or so operations, which a running service has long done.
    if (o.warmup > 0) {
      await runPhase({
        ...phaseInput,
        platform: 'sandbox',
        subtasks: o.warmup,
        label: 'warm-up',
        deadlineMs: 120_000,
      });
      timer.phase(`warm-up (${o.warmup} sub tasks, not measured)`);
    }
    const traced = cluster.nodes.map((n) => n.nodeId);
    if (o.trace) await traceAll(c.probe, traced, 'reset');
    const schedPid = c.scheduler.p.child.pid!;
    const sched0 = ownTicks(schedPid);
    const cpu0 = cpuSnapshot(cluster.nodes, o.dbPids);
    const reqFrom = sandbox.requests.length;
    const a = await runPhase({
      ...phaseInput,
      platform: 'sandbox',
      subtasks: o.subtasks,
      label: 'pipeline api',
      deadlineMs: Math.max(120_000, idealMs(o.subtasks, o.latencyMs, apiCapacity) * 10),
    });
    const sched1 = ownTicks(schedPid);
    const cpu1 = cpuSnapshot(cluster.nodes, o.dbPids);
    timer.phase(`API channel run (${o.subtasks} sub tasks)`);
    for (const line of apiReport({
      options: o,
      phase: a,
      requests: sandbox.requests.slice(reqFrom),
      promptEnds: sandbox.promptEnds(reqFrom),
      schedulerCpuMs: ((sched1 - sched0) * 1000) / CLK_TCK,
      clkTck: CLK_TCK,
      cpu: cpuReport(cpu0, cpu1),
      nodeName: (id) => cluster.nameOf(id),
    }))
      out(line);
    if (o.trace) printTrace(await traceAll(c.probe, traced, 'stats'), a.submitStart, out);
    if (a.subStatuses.completed !== o.subtasks) run.fail('not every sub task completed');

    // b) web channel: the API crawler nodes give way to web ones.
    if (!o.skipWeb) {
      const web = await runWebPhase({
        options: o,
        cluster,
        probe: c.probe,
        apiNodes: c.crawlers,
        env: c.env,
        base: c.base,
        token: c.token,
        db,
        requests: sandbox.requests,
        phase: timer.phase,
      });
      for (const line of webReport(web)) out(line);
      if (web.phase.subStatuses.completed !== o.webSubtasks)
        run.fail('not every sub task completed');
    }

    const warnings = cluster.warnings();
    out('');
    out(
      `(${server}; NATS ${o.natsUrl}; Node ${process.version}; ${availableParallelism()} cores; ` +
        `child warnings ${warnings.length})`,
    );
    for (const w of warnings.slice(0, 10)) console.error(`bench: ${w}`);
  },
);
