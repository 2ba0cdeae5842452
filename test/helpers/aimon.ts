/**
 * Runs the `aimon` CLI as a child process, through its npm bin shim
 * (bin/aimon.js), with stdout and stderr apart so tests parse what it prints.
 * HOME points at a fresh directory unless given, so no real config is read.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './processes.js';

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
  const child = spawn(process.execPath, [join(ROOT, 'bin/aimon.js'), ...args], {
    cwd: o.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', ...env },
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
