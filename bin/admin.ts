/**
 * Operator CLI: users, API keys and callback settings, straight against
 * MongoDB (MONGO_URL), so it works whether or not the service is running.
 *
 *   create-user --name NAME [--json]     creates a user and a first API key
 *   create-key --user ID [--json]
 *   list-users [--json]
 *   list-keys [--user ID] [--json]
 *   revoke-key --key KEYID [--json]
 *   set-callback --user ID --url URL [--json]
 *   clear-callback --user ID [--json]
 *   show-callback --user ID [--json]
 *   evidence-rotate-key [--json]         a new key signs evidence bundles; old ones still verify
 *   account add|import|list|disable|enable|remove|check|login … [--json]
 *                                    web-channel accounts (bin/accounts/commands.ts)
 */
import { parseArgs } from 'node:util';
import { createBroker } from '../services/index.js';
import { loadConfig } from '../services/shared/config.js';
import {
  ACCOUNT_COMMANDS,
  accountUsage,
  isAccountCommand,
  UsageError,
} from './accounts/commands.js';
import { formatAccountResult } from './accounts/format.js';
import { EvidenceKeys } from '../services/shared/evidence-keys.js';
import { acquireConnection, releaseConnection } from '../services/shared/mongo.js';

const USAGE = `usage: npm run admin -- <command> [options]
  create-user --name NAME       create a user and a first API key
  create-key --user ID          create another API key for a user
  list-users                    list users
  set-role --user ID --role user|operator
                                operators see the dashboard's operator pages and routes
  list-keys [--user ID]         list API keys (never the secrets)
  revoke-key --key KEYID        revoke an API key
  set-callback --user ID --url URL
                                set a user's default callback address
  clear-callback --user ID      remove it
  show-callback --user ID       the default address and the signing secret
  evidence-rotate-key           a new Ed25519 key signs evidence bundles from now on; the
                                retired ones stay in /.well-known/jwks.json (docs/evidence.md)
${accountUsage()}
  options: --json  print machine-readable JSON only`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    user: { type: 'string' },
    key: { type: 'string' },
    url: { type: 'string' },
    role: { type: 'string' },
    platform: { type: 'string' },
    label: { type: 'string' },
    region: { type: 'string' },
    'state-file': { type: 'string' },
    file: { type: 'string' },
    id: { type: 'string' },
    out: { type: 'string' },
    'timeout-ms': { type: 'string' },
    account: { type: 'string' },
    prompt: { type: 'string' },
    mode: { type: 'string' },
    headed: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

const command = positionals[0];
if (!command || values.help) {
  console.log(USAGE);
  process.exit(command ? 0 : 2);
}

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

const userId = () => {
  const n = Number(values.user);
  if (!values.user || !Number.isSafeInteger(n) || n < 1)
    fail('--user must be a user id (a positive whole number)');
  return n;
};

// `driver-check` is an account command too, named at the top level as operators know it.
const accountCommand = command === 'driver-check' ? command : positionals[1];
const isAccount = command === 'account' || command === 'driver-check';
if (isAccount && !isAccountCommand(accountCommand)) {
  fail(`unknown account command ${accountCommand ?? '(none)'}\n${USAGE}`);
}
const service = isAccount ? 'accounts' : 'users';

let config;
try {
  // A private, transporter-less broker: the CLI never joins the cluster.
  config = loadConfig({ ...process.env, TRANSPORTER: '', LOG_LEVEL: 'silent', SERVICES: service });
} catch (err) {
  fail((err as Error).message);
}
const broker = await createBroker(config, [service]);

function runAccount(): Promise<unknown> {
  return ACCOUNT_COMMANDS[accountCommand as keyof typeof ACCOUNT_COMMANDS].run(
    {
      call: (action, params) => broker.call(`accounts.${action}`, params),
      config: config!,
      log: (text) => process.stderr.write(`${text}\n`),
    },
    {
      platform: values.platform,
      label: values.label,
      region: values.region,
      stateFile: values['state-file'],
      file: values.file,
      id: values.id,
      out: values.out,
      timeoutMs: values['timeout-ms'],
      headed: values.headed,
      account: values.account,
      prompt: values.prompt,
      mode: values.mode,
    },
  );
}

/** Straight against MongoDB: the api reads the active key for each bundle, so it takes effect at once. */
async function rotateEvidenceKey(): Promise<unknown> {
  const connection = await acquireConnection(config!.mongoUrl, config!.mongoDb);
  try {
    return await new EvidenceKeys(connection).rotate(Date.now());
  } finally {
    await releaseConnection(config!.mongoUrl, config!.mongoDb);
  }
}

async function run(): Promise<unknown> {
  switch (command) {
    case 'create-user': {
      if (!values.name?.trim()) fail('--name is required');
      const user = await broker.call<{ userId: number; name: string }, object>('users.createUser', {
        name: values.name,
      });
      const key = await broker.call<{ keyId: string; apiKey: string }, object>(
        'users.createApiKey',
        { userId: user.userId },
      );
      return { userId: user.userId, name: user.name, keyId: key.keyId, apiKey: key.apiKey };
    }
    case 'create-key':
      return broker.call('users.createApiKey', { userId: userId() });
    case 'list-users':
      return broker.call('users.listUsers');
    case 'list-keys':
      return broker.call('users.listKeys', values.user ? { userId: userId() } : {});
    case 'set-role':
      if (values.role !== 'user' && values.role !== 'operator')
        fail('--role must be user or operator');
      return broker.call('users.setRole', { userId: userId(), role: values.role });
    case 'revoke-key':
      if (!values.key) fail('--key is required');
      return broker.call('users.revokeKey', { keyId: values.key });
    case 'set-callback':
      if (!values.url) fail('--url is required (clear-callback removes the address)');
      return broker.call('users.setCallback', {
        userId: userId(),
        body: { callbackUrl: values.url },
      });
    case 'clear-callback':
      return broker.call('users.setCallback', { userId: userId(), body: { callbackUrl: null } });
    case 'show-callback':
      return broker.call('users.callbackSettings', { userId: userId() });
    case 'evidence-rotate-key':
      return rotateEvidenceKey();
    case 'account':
    case 'driver-check':
      return runAccount();
    default:
      fail(`unknown command ${command}\n${USAGE}`);
  }
}

let exitCode = 0;
try {
  await broker.start();
  const result = await run();
  if (values.json) console.log(JSON.stringify(result));
  else if (isAccount) {
    console.log(formatAccountResult(accountCommand as keyof typeof ACCOUNT_COMMANDS, result));
  } else console.log(JSON.stringify(result, null, 2));
} catch (err) {
  console.error(`admin: ${(err as Error).message}`);
  exitCode = err instanceof UsageError ? 2 : 1;
} finally {
  await broker.stop();
}
process.exit(exitCode);
