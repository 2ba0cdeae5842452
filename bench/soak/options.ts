/**
 * The soak's knobs, from its command line (`npm run bench:soak -- --minutes N`)
 * and the servers' URLs from bench/soak.sh's BENCH_* variables. Pure.
 */
import { parseDbPids } from '../pipeline/options.js';

export interface SoakOptions {
  mongoUrl: string;
  natsUrl: string;
  /** How long batches are submitted, ms (fractions of a minute allowed). */
  runMs: number;
  /** A batch every this many ms. */
  everyMs: number;
  /** API sub tasks (`sandbox`) per batch. */
  apiPrompts: number;
  /** Web sub tasks (`sandbox-web`, with a screenshot) per batch. */
  webPrompts: number;
  /** The sandbox's answer time. */
  latencyMs: number;
  /** Share of platform requests failing with 500, 503 or 429. */
  failureRate: number;
  /** Every process sampled this often, ms. */
  sampleMs: number;
  /** The MongoDB-wire server's processes and data file, from bench/soak.sh (absent: not sampled). */
  dbPids: { name: string; pid: number }[];
  dbFile: string | undefined;
}

const FLAGS: Record<string, (o: SoakOptions, v: number) => void> = {
  '--minutes': (o, v) => (o.runMs = v * 60_000),
  '--every': (o, v) => (o.everyMs = v * 1000),
  '--api-prompts': (o, v) => (o.apiPrompts = v),
  '--web-prompts': (o, v) => (o.webPrompts = v),
  '--latency': (o, v) => (o.latencyMs = v),
  '--failure-rate': (o, v) => (o.failureRate = v),
  '--sample': (o, v) => (o.sampleMs = v * 1000),
};

export const USAGE =
  'usage: bench:soak -- --minutes N [--every S] [--api-prompts N] [--web-prompts N] ' +
  '[--latency MS] [--failure-rate F] [--sample S]';

/** Undefined when the servers' URLs are missing (bench/soak.sh sets them); throws on a bad flag. */
export function soakOptions(argv: readonly string[], env = process.env): SoakOptions | undefined {
  const mongoUrl = env.BENCH_MONGO_URL;
  const natsUrl = env.BENCH_NATS_URL;
  if (!mongoUrl || !natsUrl) return undefined;
  const o: SoakOptions = {
    mongoUrl,
    natsUrl,
    runMs: 60 * 60_000,
    everyMs: 5_000,
    apiPrompts: 20,
    webPrompts: 2,
    latencyMs: 300,
    failureRate: 0.02,
    sampleMs: NaN,
    dbPids: parseDbPids(env.BENCH_DB_PIDS ?? ''),
    dbFile: env.BENCH_DB_FILE || undefined,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const set = FLAGS[argv[i]!];
    const v = Number(argv[i + 1]);
    if (!set || argv[i + 1] === undefined || !Number.isFinite(v) || v < 0)
      throw new Error(`bad option ${argv[i]} ${argv[i + 1] ?? ''}\n${USAGE}`);
    set(o, v);
  }
  if (o.runMs <= 0 || o.everyMs <= 0)
    throw new Error(`--minutes and --every must be > 0\n${USAGE}`);
  if (o.apiPrompts + o.webPrompts < 1 || o.apiPrompts > 50 || o.webPrompts > 50)
    throw new Error(`a batch holds 1 to 50 prompts per platform\n${USAGE}`);
  if (o.failureRate > 1) throw new Error(`--failure-rate is a share, 0 to 1\n${USAGE}`);
  // Twelve samples at least even in a tiny run; every 30 s in a long one (each forces a full
  // collection in every node, which on a crowded machine takes a second).
  if (Number.isNaN(o.sampleMs)) o.sampleMs = Math.min(30_000, Math.max(1_000, o.runMs / 12));
  return o;
}
