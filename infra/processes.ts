/** Runs the project's entry points as real child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { channel } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../services/shared/project-root.js';
import { DEFAULT_CHROMIUM_PATH } from '../services/shared/config.js';
import { UNHANDLED_REJECTION_MARK } from '../services/shared/unhandled-rejections.js';

/** The project root, also when this module runs from var/build (as the compiled tests do). */
export const ROOT = PROJECT_ROOT;

/**
 * The bin/ entry points as infra/test.sh builds them before the tests: a child
 * started from JavaScript skips tsx's compile, a CPU second per node start on
 * a busy machine. Scripts outside bin/ (benchmarks, stand-in nodes) run through tsx.
 */
export function builtEntry(script: string): string {
  const built = join(ROOT, 'var/build', script.replace(/\.ts$/, '.js'));
  if (!existsSync(built))
    throw new Error(
      `${built} is missing: npm test and the cluster benchmarks build it first (infra/build.ts); ` +
        'to run single files, build with node_modules/.bin/tsc -p tsconfig.build.json --outDir var/build',
    );
  return built;
}

/**
 * The Chromium the caller chose (CHROMIUM_PATH; the test suite sets the headless shell), else the
 * crawler's default. Children started here get the same choice.
 */
export const chromiumPath = (): string => process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;

/** What every child started here inherits: where programs are, a home, the Chromium to drive. */
export const baseEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  CHROMIUM_PATH: chromiumPath(),
});

const nodeArgs = (script: string) =>
  /^bin\/.*\.ts$/.test(script) ? [builtEntry(script)] : ['--import', 'tsx', script];

export interface Running {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first stdout line matching the pattern. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** The exit code once the process ended and its output is read; sends no signal. */
  exited: Promise<number | null>;
  /** Signals the process (unless it ended) and resolves as `exited` does. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Where a child's unhandled rejection is told (its node logged UNHANDLED_REJECTION_MARK):
 * the test processes listen (test/helpers/test-process.mjs) and fail their file.
 */
export const CHILD_REJECTIONS = channel('aimon:child-unhandled-rejection');

/** The lines of `text` that report an unhandled rejection. */
export function rejectionLines(text: string): string[] {
  return text.split('\n').filter((line) => line.includes(UNHANDLED_REJECTION_MARK));
}

/** How long an exited process's output is waited for when a grandchild holds its pipes. */
const OUTPUT_GRACE_MS = 2_000;

export function startProcess(script: string, args: string[], env: Record<string, string>): Running {
  // Node itself (not the tsx wrapper), so a signal reaches the real process.
  const child = spawn(process.execPath, [...nodeArgs(script), ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  /** How much of `out` was looked at for rejections: whole lines only, each once. */
  let scanned = 0;
  const append = (d: Buffer) => {
    out += d.toString();
    const end = out.lastIndexOf('\n') + 1;
    if (end <= scanned) return;
    for (const line of rejectionLines(out.slice(scanned, end)))
      CHILD_REJECTIONS.publish({ script, pid: child.pid, line });
    scanned = end;
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  // 'exit' can come before the last output is read; 'close' comes after the
  // pipes end, but a grandchild that inherited them would hold it back.
  const closed = new Promise((resolve) => child.once('close', resolve));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      const grace = setTimeout(resolve, OUTPUT_GRACE_MS, code);
      void closed.then(() => {
        clearTimeout(grace);
        resolve(code);
      });
    }),
  );
  return {
    child,
    output: () => out,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      // Looked for on each chunk of output (after it is appended), not on a timer.
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(pattern);
          if (m) settle(() => resolve(m));
          return m;
        };
        const fail = (why: string) =>
          settle(() => reject(new Error(`no ${pattern} from ${script} ${why}; output:\n${out}`)));
        const timer = setTimeout(() => fail(`within ${timeoutMs} ms`), timeoutMs);
        let settled = false;
        const settle = (then: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          child.stdout!.off('data', check);
          child.stderr!.off('data', check);
          then();
        };
        if (check()) return;
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
        void exited.then(() => check() ?? fail('before it exited'));
      });
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
  const code = await p.exited;
  return { code, output: p.output() };
}
