/**
 * `npm run replica -- <platform> [--port N] [--latency-ms N] [--state-file F]`:
 * starts one site replica on 127.0.0.1 on its own, prints its URL, the
 * variable that points the platform's web channel at it, and writes a ready
 * storage-state file of its test account (for `npm run admin -- account
 * import`). Runs until interrupted.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPLICA_PLATFORMS, startReplica } from '../replicas/index.js';

const USAGE = `usage: npm run replica -- <platform> [--port N] [--latency-ms N] [--state-file F]
  platforms: ${REPLICA_PLATFORMS.join(', ')}
  --port N         listen on 127.0.0.1:N (default: any free port)
  --latency-ms N   delay between streamed frames (default: the replica's own)
  --state-file F   where to write the test account's storage state
                   (default: var/replica-<platform>-state.json)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string' },
    'latency-ms': { type: 'string' },
    'state-file': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

const platform = positionals[0];
if (!platform || values.help || !REPLICA_PLATFORMS.includes(platform)) {
  console.log(USAGE);
  process.exit(platform && !values.help ? 2 : 0);
}
const whole = (name: string, raw: string | undefined) => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) {
    console.error(`replica: --${name} must be a whole number`);
    process.exit(2);
  }
  return n;
};

const replica = await startReplica(platform, {
  port: whole('port', values.port),
  latencyMs: whole('latency-ms', values['latency-ms']),
});
const stateFile = resolve(values['state-file'] ?? `var/replica-${platform}-state.json`);
writeFileSync(stateFile, JSON.stringify(replica.storageState(), null, 2));
const prefix = platform.toUpperCase().replace(/-/g, '_');
console.log(`${platform} replica: ${replica.url}
storage state of its test account: ${stateFile}
point the web channel at it:  ${prefix}_WEB_URL=${replica.url}
import the account:           npm run admin -- account import --platform ${platform} --label replica --file ${stateFile}
(Ctrl-C stops it)`);

const stop = () => void replica.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
