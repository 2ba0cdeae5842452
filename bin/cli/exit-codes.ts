/**
 * The CLI's exit codes, one scheme for every command. A command that waits
 * for a task (`submit --wait`, `status --wait`) exits with the task's final
 * state (spec 3.1: completed, partial_completed, failed), and `monitor run
 * --wait` with the same codes for the run's tasks (run-outcome.ts); every
 * other command exits 0 when it did its job.
 */

export const EXIT = Object.freeze({
  /** Done; a waited-for task completed fully. */
  ok: 0,
  /** Bad usage, or the API refused the request (4xx other than authentication). */
  usage: 1,
  /** The waited-for task ended partial_completed: some sub tasks failed. */
  partial: 2,
  /** The waited-for task ended failed: every sub task failed; or a bundle failed verification. */
  failed: 3,
  /** The service cannot be reached or is failing (5xx), or authentication failed. */
  unreachable: 4,
});

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit code of a task's final status (pure). */
export function exitCodeOfTask(status: string): ExitCode {
  if (status === 'completed') return EXIT.ok;
  if (status === 'partial_completed') return EXIT.partial;
  return EXIT.failed;
}

/** An error the CLI reports as one message and ends with `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: ExitCode,
    /** Further lines (every violated rule of a refused request). */
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const EXIT_CODES_HELP = `Exit codes:
  0  success; with --wait: the task (each task of a monitor run) completed fully
  1  usage error, or the API refused the request (every violated rule is printed)
  2  with --wait: the task ended partial_completed (some sub tasks failed; a run: or
     a submission was refused)
  3  with --wait: the task ended failed (every sub task failed; a run: every task);
     verify: the bundle failed
  4  the service cannot be reached or is failing (5xx), or authentication failed`;
