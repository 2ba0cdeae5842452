/**
 * `npm run replica -- <platform> [--port N] [--latency-ms N] [--state-file F] [--drift D,D | --drift-seed N]`:
 * starts one site replica on 127.0.0.1 on its own, prints its URL, the
 * variable that points the platform's web channel at it, and writes a ready
 * storage-state file of its test account (for `npm run admin -- account
 * import`). Runs until interrupted.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPLICA_CALL_FROM, REPLICA_PLATFORMS, startReplica } from '../replicas/index.js';
import { DRIFTS, type Drift } from '../replicas/common/drift.js';
import { drawSiteDrifts } from '../replicas/common/drift-sample.js';

const USAGE = `usage: npm run replica -- <platform> [--port N] [--latency-ms N] [--state-file F]
                                        [--drift D,D… | --drift-seed N]
  platforms: ${REPLICA_PLATFORMS.join(', ')}
  --port N         listen on 127.0.0.1:N (default: any free port)
  --latency-ms N   delay between streamed frames (default: the replica's own)
  --state-file F   where to write the test account's storage state
                   (default: var/replica-<platform>-state.json)
  --drift D,D…     the site as it might drift, composed: ${DRIFTS.filter((d) => d !== 'none').join(', ')}
  --drift-seed N   the drifts the site contract drew for seed N (its failure message prints N)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string' },
    'latency-ms': { type: 'string' },
    'state-file': { type: 'string' },
    drift: { type: 'string' },
    'drift-seed': { type: 'string' },
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

/** The drifts asked for by name, or drawn from the seed as the site contract draws them. */
function driftsAsked(): Drift[] {
  const seed = whole('drift-seed', values['drift-seed']);
  if (seed !== undefined) return drawSiteDrifts(seed, platform!, REPLICA_CALL_FROM[platform!]!);
  const names = (values.drift ?? '').split(',').filter(Boolean);
  const unknown = names.filter((n) => !(DRIFTS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    console.error(`replica: unknown drift ${unknown.join(', ')}; drifts: ${DRIFTS.join(', ')}`);
    process.exit(2);
  }
  return names as Drift[];
}

const drift = driftsAsked();
const replica = await startReplica(platform, {
  port: whole('port', values.port),
  latencyMs: whole('latency-ms', values['latency-ms']),
  drift,
});
const stateFile = resolve(values['state-file'] ?? `var/replica-${platform}-state.json`);
writeFileSync(stateFile, JSON.stringify(replica.storageState(), null, 2));
const prefix = platform.toUpperCase().replace(/-/g, '_');
console.log(`${platform} replica: ${replica.url}${drift.length > 0 ? ` (drifted: ${drift.join(', ')})` : ''}
storage state of its test account: ${stateFile}
point the web channel at it:  ${prefix}_WEB_URL=${replica.url}
import the account:           npm run admin -- account import --platform ${platform} --label replica --file ${stateFile}
(Ctrl-C stops it)`);

const stop = () => void replica.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
