/**
 * What every cluster benchmark does around its own measuring: the servers'
 * URLs from its shell script (else a hint and exit 2), the compiled build its
 * nodes run (made or brought up to date, infra/build.ts), a watchdog that kills
 * every node past the run's ceiling, the phase timer, the benchmark's database
 * (dropped at the end), and on the way out, whatever happened, the nodes
 * stopped, every registered clean-up run, the total time and the exit code.
 */
import type mongoose from 'mongoose';
import { ensureBuild } from '../../infra/build.js';
import { Cluster } from './cluster.js';
import { phaseTimer } from './phases.js';
import { openDatabase } from './setup.js';

export interface BenchRun {
  cluster: Cluster;
  db: mongoose.Connection;
  /** What the database server says it is, for the footer. */
  server: string;
  timer: ReturnType<typeof phaseTimer>;
  /** A figure line on stdout (progress goes to stderr). */
  out(line?: string): void;
  /** The run goes on, but exits non-zero, saying why. */
  fail(why: string): void;
  /** Run on the way out, last registered first, after the nodes stopped. */
  cleanup(fn: () => Promise<unknown> | unknown): void;
}

export async function runBench<O extends { mongoUrl: string; natsUrl: string }>(
  options: O | undefined,
  how: { script: string; timeoutMs: number; trace?: boolean },
  body: (run: BenchRun, o: O) => Promise<void>,
): Promise<never> {
  if (!options) {
    console.error(
      `BENCH_MONGO_URL or BENCH_NATS_URL is not set: run \`bash ${how.script}\` (it starts the servers)`,
    );
    process.exit(2);
  }
  const o = options;
  // The nodes run compiled (builtEntry): built first, outside the timed phases and the watchdog.
  await ensureBuild();
  const timer = phaseTimer();
  const cluster = new Cluster(o.mongoUrl, o.natsUrl, how.trace ?? false);
  const watchdog = setTimeout(() => {
    console.error(`bench: gave up after ${how.timeoutMs / 1000} s; killing every node`);
    cluster.killAll();
    process.exit(1);
  }, how.timeoutMs);
  watchdog.unref();

  let failed = false;
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  try {
    const { db, server } = await openDatabase(o, cluster);
    cleanups.push(async () => {
      await db.dropDatabase().catch(() => undefined);
      await db.close();
    });
    await body(
      {
        cluster,
        db,
        server,
        timer,
        out: (line = '') => console.log(line),
        fail: (why) => {
          failed = true;
          console.error(`bench: ${why}`);
        },
        cleanup: (fn) => void cleanups.push(fn),
      },
      o,
    );
  } catch (err) {
    failed = true;
    console.error(`bench failed: ${(err as Error).stack ?? String(err)}`);
    cluster.dumpOutputs();
  } finally {
    await cluster.stopAll();
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
    timer.phase('stop and drop database');
    console.error(`bench: done in ${(timer.total() / 1000).toFixed(1)} s`);
    clearTimeout(watchdog);
  }
  process.exit(failed ? 1 : 0);
}
