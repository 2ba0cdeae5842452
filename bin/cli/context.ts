/**
 * What every command shares: the settings and one API client (so the
 * access token is fetched once per run), output on stdout (results) and
 * stderr (notes, progress, errors), and the wrapper that turns a command's
 * outcome or error into the process exit code.
 */
import { ApiClient } from './api-client.js';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
import { loadSettings, type Settings } from './settings.js';

export class Cli {
  private settingsLoaded: Promise<Settings> | undefined;
  private apiClient: ApiClient | undefined;

  constructor(
    readonly stdout: NodeJS.WriteStream = process.stdout,
    readonly stderr: NodeJS.WriteStream = process.stderr,
  ) {}

  settings(): Promise<Settings> {
    return (this.settingsLoaded ??= loadSettings());
  }

  async client(): Promise<ApiClient> {
    if (!this.apiClient) {
      const s = await this.settings();
      this.apiClient = new ApiClient(s.url, s.apiKey);
    }
    return this.apiClient;
  }

  print(text: string): void {
    this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  note(text: string): void {
    this.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** A commander action that sets the exit code from the command's result or error. */
  action<A extends unknown[]>(fn: (...args: A) => Promise<ExitCode | void>) {
    return async (...args: A): Promise<void> => {
      try {
        process.exitCode = (await fn(...args)) ?? EXIT.ok;
      } catch (err) {
        process.exitCode = this.report(err);
      }
    };
  }

  private report(err: unknown): ExitCode {
    if (err instanceof CliError) {
      this.note(`error: ${err.message}`);
      for (const line of err.details) this.note(`  - ${line}`);
      return err.code;
    }
    this.note(`error: ${(err as Error)?.message ?? String(err)}`);
    return EXIT.usage;
  }
}
