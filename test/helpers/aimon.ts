/**
 * Runs the `aimon` CLI as a child process, from the build (the npm bin shim
 * bin/aimon.js runs the same entry through tsx; test/integration/cli/bin-shim
 * starts it), with stdout and stderr apart so tests parse what it prints.
 * HOME points at a fresh directory unless given, so no real config is read.
 */
import { spawn } from 'node:child_process';
import { startSandboxServer } from '../../sandbox/server.js';
import { startEmbedded, type TapLike } from './cluster.js';
import { baseEnv, builtEntry, ROOT } from '../../infra/processes.js';

export interface AimonRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function aimon(
  args: string[],
  env: Record<string, string>,
  o: { stdin?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<AimonRun> {
  const child = spawn(process.execPath, [builtEntry('bin/aimon.ts'), ...args], {
    cwd: o.cwd ?? ROOT,
    env: { ...baseEnv(), HOME: '/nonexistent', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(o.stdin ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 45_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The embedded service running sandbox batches (sandbox stand-in with the
 * given latency, every role, 4 slots), one user, and the environment that
 * points `aimon` at it with that user's key.
 */
export async function startCliService(
  t: TapLike,
  latencyMs: number,
  extraEnv: Record<string, string> = {},
) {
  const sandbox = await startSandboxServer({ latencyMs });
  t.teardown(() => sandbox.close());
  const svc = await startEmbedded(t, {
    SERVICES: 'all',
    SANDBOX_URL: sandbox.url,
    CRAWLER_CAPACITY: '4',
    ...extraEnv,
  });
  const user = await svc.newUser();
  const env = { AIMON_URL: svc.client.baseUrl, AIMON_API_KEY: user.apiKey };
  return { svc, user, env };
}
