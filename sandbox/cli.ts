/**
 * Runs the sandbox stand-in on its own, for trying the service offline or
 * sharing one stand-in between nodes (SANDBOX_URL):
 *   npx tsx sandbox/cli.ts [--host 127.0.0.1] [--port 0] [--seed 1] [--login-wall]
 *                          [--latency-ms 1500] [--failure-rate 0]
 * Prints the base URL; stops on SIGINT / SIGTERM. See cli-args.ts for defaults.
 */
import { configFromProcess } from '../services/shared/config.js';
import { sandboxOptionsFromArgs } from './cli-args.js';
import { startSandboxServer } from './server.js';

let options;
try {
  options = sandboxOptionsFromArgs(process.argv.slice(2), configFromProcess().sandbox);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
const server = await startSandboxServer(options);
process.stdout.write(
  `sandbox platform listening on ${server.url} (API ${server.url}/v1/chat/completions, chat ${server.url}/)\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
