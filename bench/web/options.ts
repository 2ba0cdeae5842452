/**
 * The web benchmark's set-up, from its command line (`npm run bench:web --
 * --platform kimi --subtasks 80 --kept-pages 0`) and the servers' URLs from bench/web.sh.
 */
import { parseArgs } from 'node:util';
import { REPLICA_PLATFORMS } from '../../replicas/index.js';

export interface WebBenchOptions {
  mongoUrl: string;
  natsUrl: string;
  /** The replica site the crawler node's driver runs against. */
  platform: string;
  subtasks: number;
  /** Logged-in accounts, and the crawler node's capacity (one page per account at a time). */
  accounts: number;
  /** The replica's fixed delay between two streamed frames. */
  frameLatencyMs: number;
  /** Account pages the crawler node keeps between sub tasks (WEB_KEPT_PAGES); 0: a fresh page each. */
  keptPages: number;
  /** Memory: account pages open first (K) ... */
  memoryBase: number;
  /** ... and how many more are opened (M). */
  memoryExtra: number;
}

const int = (name: string, raw: string | undefined, def: number, min: number): number => {
  if (raw === undefined) return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}`);
  return n;
};

/** Undefined when the servers' URLs are missing (bench/web.sh sets them). */
export function webBenchOptions(
  argv = process.argv.slice(2),
  env = process.env,
): WebBenchOptions | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      platform: { type: 'string', default: 'deepseek' },
      subtasks: { type: 'string' },
      accounts: { type: 'string' },
      'frame-latency': { type: 'string' },
      'kept-pages': { type: 'string' },
      'memory-base': { type: 'string' },
      'memory-extra': { type: 'string' },
    },
  });
  const platform = values.platform!;
  if (!REPLICA_PLATFORMS.includes(platform))
    throw new Error(`--platform must be one of ${REPLICA_PLATFORMS.join(', ')}`);
  const mongoUrl = env.BENCH_MONGO_URL;
  const natsUrl = env.BENCH_NATS_URL;
  if (!mongoUrl || !natsUrl) return undefined;
  const accounts = int('accounts', values.accounts, 4, 1);
  return {
    mongoUrl,
    natsUrl,
    platform,
    subtasks: int('subtasks', values.subtasks, 40, 1),
    accounts,
    frameLatencyMs: int('frame-latency', values['frame-latency'], 50, 0),
    keptPages: int('kept-pages', values['kept-pages'], accounts, 0),
    memoryBase: int('memory-base', values['memory-base'], 2, 1),
    memoryExtra: int('memory-extra', values['memory-extra'], 4, 1),
  };
}
