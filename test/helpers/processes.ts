/** Runs the project's entry points as real child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Running {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first stdout line matching the pattern. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startProcess(script: string, args: string[], env: Record<string, string>): Running {
  // Node itself with tsx's loader (not the tsx wrapper), so a signal reaches the real process.
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    output: () => out,
    async waitFor(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const m = out.match(pattern);
        if (m) return m;
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no ${pattern} from ${script} within ${timeoutMs} ms; output:\n${out}`);
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs a command to completion and returns its exit code and output. */
export async function runProcess(script: string, args: string[], env: Record<string, string>) {
  const p = startProcess(script, args, env);
  const code = await new Promise<number | null>((resolve) => p.child.once('exit', resolve));
  return { code, output: p.output() };
}
