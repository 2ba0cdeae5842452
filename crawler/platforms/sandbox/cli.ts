/**
 * Runs the sandbox server on its own, for trying the service offline:
 *   npx tsx crawler/platforms/sandbox/cli.ts
 * Environment: SANDBOX_HOST (127.0.0.1), SANDBOX_PORT (0 = any free port),
 * SANDBOX_LATENCY_MS (800), SANDBOX_FAILURE_RATE (0), SANDBOX_SEED (1),
 * SANDBOX_LOGIN_WALL (unset). Prints the base URL; stops on SIGINT / SIGTERM.
 */
import { startSandboxServer } from './server.js';

function num(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got ${JSON.stringify(v)}`);
  return n;
}

const server = await startSandboxServer({
  host: process.env.SANDBOX_HOST || '127.0.0.1',
  port: num('SANDBOX_PORT', 0),
  latencyMs: num('SANDBOX_LATENCY_MS', 800),
  failureRate: num('SANDBOX_FAILURE_RATE', 0),
  seed: num('SANDBOX_SEED', 1),
  loginWall: Boolean(process.env.SANDBOX_LOGIN_WALL),
});
process.stdout.write(
  `sandbox platform listening on ${server.url} (API ${server.url}/v1/chat/completions, chat ${server.url}/)\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
