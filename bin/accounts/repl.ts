/**
 * The account commands in the Moleculer REPL (`npm run repl`): `accounts`
 * lists them, `account-<command>` runs the admin CLI's command of that name
 * over the cluster's `accounts` service, printed the same way.
 */
import type { ServiceBroker } from 'moleculer';
import type { Config } from '../../services/shared/config.js';
import { ACCOUNT_COMMANDS, type AccountCommandName, type AccountOptions } from './commands.js';
import { formatAccountResult } from './format.js';

const FLAGS: Record<keyof AccountOptions, { option: string; description: string }> = {
  platform: { option: '--platform <name>', description: 'platform (canonical name or alias)' },
  label: { option: '--label <label>', description: "the account's label" },
  region: { option: '--region <code>', description: 'region code of the city lookup' },
  stateFile: { option: '--state-file <file>', description: 'Playwright storage-state file' },
  file: { option: '--file <file>', description: 'Playwright storage-state file' },
  id: { option: '--id <id>', description: 'account id' },
  out: { option: '--out <file>', description: 'PNG file of the login screen' },
  timeoutMs: { option: '--timeout-ms <ms>', description: 'how long to wait for the login' },
  headed: { option: '--headed', description: 'show the browser window' },
  account: { option: '--account <id|label>', description: "the account's id or label" },
  prompt: { option: '--prompt <text>', description: 'the prompt to ask' },
  mode: { option: '--mode <mode>', description: 'standard, reasoning, search or reasoning_search' },
};

type ReplArgs = { options: AccountOptions & { json?: boolean } };

function replCommand(name: AccountCommandName, command: string, config: Config) {
  const c = ACCOUNT_COMMANDS[name];
  return {
    command,
    description: c.description,
    options: [
      ...c.options.map((o) => FLAGS[o]),
      { option: '--json', description: 'print machine-readable JSON only' },
    ],
    async action(broker: ServiceBroker, args: ReplArgs) {
      try {
        const result = await c.run(
          {
            call: (action, params) => broker.call(`accounts.${action}`, params),
            config,
            log: (text) => console.log(text),
          },
          args.options,
        );
        console.log(args.options.json ? JSON.stringify(result) : formatAccountResult(name, result));
      } catch (err) {
        console.error(`account ${name}: ${(err as Error).message}`);
      }
    },
  };
}

/** Moleculer REPL custom commands (broker option `replCommands`). */
export function accountReplCommands(config: Config) {
  return [
    replCommand('list', 'accounts', config),
    replCommand('driver-check', 'driver-check', config),
    ...(Object.keys(ACCOUNT_COMMANDS) as AccountCommandName[])
      .filter((name) => name !== 'driver-check')
      .map((name) => replCommand(name, `account-${name}`, config)),
  ];
}
