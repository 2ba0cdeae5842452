/**
 * Web benchmark (`npm run bench:web`, through bench/web.sh which starts NATS
 * and the MongoDB-wire server): on a site replica in this process, a real
 * cluster of child processes as `npm run serve` starts them (api, tasks,
 * users and accounts on one node, the scheduler, one web crawler node of
 * capacity 4) with 4 logged-in accounts, a warm-up of one sub task per
 * account (each opens its account's page on the node; reported apart), then
 *   1) sub tasks per minute for the node;
 *   2) the driver's overhead per sub task: its wall time on the crawler (the
 *      lease's arrival to its report, seen on NATS, bench/web/nats-tap.ts)
 *      minus the replica's own time for that sub task's chat call;
 *   3) marginal memory per logged-in account context, measured apart
 *      (bench/web/memory.ts) once the cluster has stopped;
 *   4) the two witnesses' cost per answer (reading the rendered answer and
 *      comparing it with the stream's), from each answer's stored evidence
 *      (bench/web/witness-cost.ts).
 * Options: --platform deepseek|doubao|kimi|yuanbao, --subtasks, --accounts,
 * --frame-latency (ms), --kept-pages (0: a fresh page per sub task),
 * --memory-base, --memory-extra. Figures go to stdout,
 * progress to stderr.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { driverFor } from '../crawler/platforms/index.js';
import { configFromProcess } from '../services/shared/config.js';
import { startReplica } from '../replicas/index.js';
import { runBench } from './pipeline/bench-run.js';
import { runPhase } from './pipeline/load.js';
import { accessToken, createUser } from './pipeline/setup.js';
import { addAccounts, siteRequests } from './web/accounts.js';
import { timingsOf } from './web/figures.js';
import { measureContexts, type MemoryFigures } from './web/memory.js';
import { tapRequests } from './web/nats-tap.js';
import { webBenchOptions } from './web/options.js';
import { webBenchReport } from './web/report.js';
import { witnessCosts } from './web/witness-cost.js';

/** Whole-run ceiling: every node is killed and the process exits non-zero. */
const RUN_TIMEOUT_MS = 10 * 60_000;
/** A generous bound for the batch: far above 40 answers of a few seconds on 4 pages. */
const BATCH_DEADLINE_MS = 5 * 60_000;

await runBench(
  webBenchOptions(),
  { script: 'bench/web.sh', timeoutMs: RUN_TIMEOUT_MS },
  async (run, o) => {
    const { cluster, db, server, timer, out } = run;
    const P = o.platform.toUpperCase();
    const replica = await startReplica(o.platform, { latencyMs: o.frameLatencyMs });
    run.cleanup(() => replica.close());
    const env = {
      ACCOUNTS_KEY: randomBytes(32).toString('hex'),
      [`${P}_WEB_URL`]: replica.url,
      [`${P}_WEB_GAP_MS`]: '0',
      [`${P}_WEB_QUOTA`]: '100000/1h',
      WEB_GAP_JITTER: '0',
    };
    const tap = await tapRequests(o.natsUrl, cluster.env.NAMESPACE!);
    run.cleanup(() => tap.close());
    const front = cluster.start('api', { ...env, SERVICES: 'api,tasks,users,accounts', PORT: '0' });
    const scheduler = cluster.start('scheduler', { ...env, SERVICES: 'scheduler' });
    const crawler = cluster.start('crawler', {
      ...env,
      SERVICES: 'crawler',
      CRAWLER_CAPACITY: String(o.accounts),
      CRAWLER_CHANNELS: 'web',
      WEB_KEPT_PAGES: String(o.keptPages),
    });
    const apiKey = createUser(cluster);
    apiKey.catch(() => undefined);
    const base = await cluster.ready(front);
    if (!base) throw new Error('the api node announced no URL');
    await Promise.all([scheduler, crawler].map((n) => cluster.ready(n)));
    const probe = await cluster.probe();
    run.cleanup(() => probe.stop());
    await cluster.discovered(
      probe,
      cluster.nodes.map((n) => n.nodeId),
    );
    const token = await accessToken(base, await apiKey);
    const idOfLabel = await addAccounts(probe, replica, o.platform, o.accounts);
    timer.phase(`start cluster, user, token and ${o.accounts} accounts`);
    console.error(`bench: api ${base}, replica ${replica.url}, ${server}`);

    const batch = (subtasks: number, label: string) =>
      runPhase({
        base,
        token,
        db,
        platform: o.platform,
        channel: 'web',
        subtasks,
        label,
        deadlineMs: BATCH_DEADLINE_MS,
        submitters: 1,
        sampleMs: 1000,
        pollMs: 200,
      });
    // Unmeasured, as in the pipeline benchmark: one sub task per account opens its page on the node.
    const warm = await batch(o.accounts, 'bench web warm-up');
    if (warm.subStatuses.completed !== o.accounts) run.fail('not every sub task completed');
    const measuredFrom = Date.now();
    timer.phase(`warm-up (${o.accounts} sub tasks, one per account)`);
    const phase = await batch(o.subtasks, 'bench web');
    timer.phase(`web batch (${o.subtasks} sub tasks)`);
    // The last report's packet is on NATS before its task turns final.
    const requests = siteRequests(replica, o.platform, idOfLabel);
    const timed = (from: number, to: number) =>
      timingsOf(
        tap.leases,
        tap.checkouts,
        tap.reports.filter((r) => r.at >= from && r.at < to),
        requests,
      );
    const warmup = timed(0, measuredFrom).timings;
    const { timings, unpaired } = timed(measuredFrom, Infinity);
    if (phase.subStatuses.completed !== o.subtasks) run.fail('not every sub task completed');
    const witness = await witnessCosts(db, measuredFrom);
    const warnings = cluster.warnings();
    await cluster.stopAll();
    timer.phase('stop the cluster');

    const web = driverFor(o.platform, 'web')!.web!;
    const memory: MemoryFigures = await measureContexts({
      replica,
      web,
      settings: { apiBaseUrl: '', webUrl: replica.url, timeoutMs: 60_000 },
      chromiumPath: configFromProcess().crawler.chromiumPath,
      basePages: o.memoryBase,
      extraPages: o.memoryExtra,
    });
    timer.phase(`memory: ${o.memoryBase} then ${o.memoryBase + o.memoryExtra} account pages`);

    for (const line of webBenchReport({
      options: o,
      replicaUrl: replica.url,
      phase,
      timings,
      unpaired,
      warmup,
      memory,
      witness,
    }))
      out(line);
    out('');
    out(
      `(${server}; NATS ${o.natsUrl}; Node ${process.version}; ${availableParallelism()} cores; ` +
        `load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(
            ' ',
          )}; Chromium ${configFromProcess().crawler.chromiumPath}; child warnings ${warnings.length})`,
    );
    for (const w of warnings.slice(0, 10)) console.error(`bench: ${w}`);
  },
);
