/**
 * The HTTP load generator of the API benchmark, in its own process (as
 * autocannon would be), so the client never shares the service's event loop.
 * The parent forks this file and sends one LoadPlan; it answers one
 * LoadFigures and exits. Bounded by time and by count.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { percentile } from '../common.js';

export interface LoadPlan {
  origin: string;
  path: string;
  token?: string;
  connections: number;
  seconds: number;
  maxRequests: number;
}

export interface LoadFigures {
  requests: number;
  errors: number;
  /** Error kinds and their counts, e.g. "HTTP 500: 3". */
  errorKinds: Record<string, number>;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  bytes: number;
}

/** Per-request ceiling, so a stuck request cannot hang the run. */
const REQUEST_TIMEOUT_MS = 30_000;

export async function runLoad(plan: LoadPlan): Promise<LoadFigures> {
  const pool = new Pool(plan.origin, {
    connections: plan.connections,
    pipelining: 1,
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  const headers: Record<string, string> = plan.token
    ? { authorization: `Bearer ${plan.token}` }
    : {};
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  let errors = 0;
  let bytes = 0;
  let issued = 0;
  const start = performance.now();
  const deadline = start + plan.seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline && issued < plan.maxRequests) {
      issued += 1;
      const t0 = performance.now();
      let kind: string | undefined;
      try {
        const res = await pool.request({ method: 'GET', path: plan.path, headers });
        const body = Buffer.from(await res.body.arrayBuffer());
        if (res.statusCode !== 200) kind = `HTTP ${res.statusCode}`;
        else bytes = body.length;
      } catch (err) {
        kind = (err as Error).name;
      }
      latencies.push(performance.now() - t0);
      if (kind) {
        errors += 1;
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: plan.connections }, loop));
  const seconds = (performance.now() - start) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    errorKinds,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
    bytes,
  };
}

if (process.send) {
  process.once('message', (plan: LoadPlan) => {
    runLoad(plan).then(
      (figures) => process.send!({ figures }, () => process.exit(0)),
      (err: unknown) => process.send!({ error: String(err) }, () => process.exit(1)),
    );
  });
}
