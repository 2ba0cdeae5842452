/**
 * The standalone stand-in's command line, pure. Host, port, seed and the
 * login wall are its own; answer time and failure share default to the
 * SANDBOX_LATENCY_MS and SANDBOX_FAILURE_RATE of the config module, the same
 * values a crawler node gives its built-in stand-in.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { SandboxServerOptions } from './server.js';

export const USAGE = `usage: sandbox/cli.ts [--host 127.0.0.1] [--port 0] [--seed 1] [--login-wall]
                      [--latency-ms <SANDBOX_LATENCY_MS>] [--failure-rate <SANDBOX_FAILURE_RATE>]`;

const flags = z.object({
  host: z.string().min(1, 'must not be empty').optional(),
  port: z.coerce.number().int().min(0).max(65535).optional(),
  seed: z.coerce.number().int().optional(),
  'login-wall': z.boolean().optional(),
  'latency-ms': z.coerce.number().int().min(0).optional(),
  'failure-rate': z.coerce.number().min(0).max(1).optional(),
});

/** The server options for `argv` (without node and the script); throws on a bad flag. */
export function sandboxOptionsFromArgs(
  argv: readonly string[],
  defaults: { latencyMs: number; failureRate: number },
): SandboxServerOptions {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        seed: { type: 'string' },
        'login-wall': { type: 'boolean' },
        'latency-ms': { type: 'string' },
        'failure-rate': { type: 'string' },
      },
    }));
  } catch (err) {
    // Unknown flags and missing values, in node's own words.
    throw new Error(`${(err as Error).message}\n${USAGE}`);
  }
  const parsed = flags.safeParse(values);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`);
    throw new Error(`${problems.join('; ')}\n${USAGE}`);
  }
  const v = parsed.data;
  const options: SandboxServerOptions = {
    latencyMs: v['latency-ms'] ?? defaults.latencyMs,
    failureRate: v['failure-rate'] ?? defaults.failureRate,
    loginWall: v['login-wall'] ?? false,
  };
  // Unset, the server's own defaults apply: 127.0.0.1, any free port, seed 1.
  if (v.host !== undefined) options.host = v.host;
  if (v.port !== undefined) options.port = v.port;
  if (v.seed !== undefined) options.seed = v.seed;
  return options;
}
