/**
 * The pipeline benchmark's knobs, read once from its own BENCH_* variables
 * (the services' config module reads the product's; these never reach it).
 * Defaults are the figures the README and docs/benchmarks.md report.
 */
import { envInt } from '../common.js';

export interface PipelineOptions {
  mongoUrl: string;
  natsUrl: string;
  /** API-channel sub tasks measured. */
  subtasks: number;
  /** The sandbox's fixed answer latency. */
  latencyMs: number;
  /** Crawler nodes, for either channel. */
  nodes: number;
  /** API-channel slots per crawler node. */
  capacity: number;
  /**
   * Crawler nodes' CRAWLER_PREFETCH. Default: the capacity. With 1 s answers,
   * the report → record → re-lease loop of a freed slot is several percent of
   * the latency, and the answers of a wave end together; a node holding a full
   * wave starts each freed slot's next lease at once. (The product default, a
   * tenth of the capacity, suits real platforms' answers of 10 s and more.)
   */
  prefetch: number;
  /** Sub tasks run through the whole cluster before the measured run (0: measure a cold start). */
  warmup: number;
  /** Clients submitting at the same time (the batches of 50 prompts are shared out among them). */
  submitters: number;
  webSubtasks: number;
  /** Chromium pages per web crawler node. */
  webCapacity: number;
  skipWeb: boolean;
  /** How often MongoDB's `processing` count is sampled (a collection scan on mongo-java-server). */
  sampleMs: number;
  /**
   * How often the client asks whether every task is final (the wall time is
   * read from completedAt, so this only bounds when the run is seen to end).
   */
  pollMs: number;
  /** Writes per answer stream at the sandbox (0: one per piece, about a hundred). */
  streamWrites: number;
  /** Nodes record Moleculer tracing spans and MongoDB commands, and the report prints them. */
  trace: boolean;
  /** The database server's processes, for their CPU (from bench/pipeline.sh). */
  dbPids: { name: string; pid: number }[];
}

/** `BENCH_DB_PIDS="mongo-server:123 nats:456"`; malformed pairs are dropped. */
export function parseDbPids(text: string): { name: string; pid: number }[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => {
      const [name, pid] = pair.split(':');
      return { name: name ?? '', pid: Number(pid) };
    })
    .filter((d) => d.name !== '' && Number.isInteger(d.pid) && d.pid > 0);
}

/** Undefined when the servers' URLs are missing (bench/pipeline.sh sets them). */
export function pipelineOptions(env = process.env): PipelineOptions | undefined {
  const mongoUrl = env.BENCH_MONGO_URL;
  const natsUrl = env.BENCH_NATS_URL;
  if (!mongoUrl || !natsUrl) return undefined;
  const capacity = envInt('BENCH_CAPACITY', 50, 1, env);
  return {
    mongoUrl,
    natsUrl,
    subtasks: envInt('BENCH_SUBTASKS', 2000, 1, env),
    latencyMs: envInt('BENCH_LATENCY_MS', 1000, 0, env),
    nodes: envInt('BENCH_NODES', 2, 1, env),
    capacity,
    prefetch: envInt('BENCH_PREFETCH', capacity, 0, env),
    warmup: envInt('BENCH_WARMUP', 500, 0, env),
    submitters: envInt('BENCH_SUBMITTERS', 4, 1, env),
    webSubtasks: envInt('BENCH_WEB_SUBTASKS', 120, 1, env),
    webCapacity: envInt('BENCH_WEB_CAPACITY', 4, 1, env),
    skipWeb: env.BENCH_SKIP_WEB === '1',
    sampleMs: envInt('BENCH_SAMPLE_MS', 1000, 10),
    pollMs: envInt('BENCH_POLL_MS', 1000, 10),
    streamWrites: envInt('BENCH_STREAM_WRITES', 8, 0, env),
    trace: env.BENCH_TRACE === '1',
    dbPids: parseDbPids(env.BENCH_DB_PIDS ?? ''),
  };
}
