/**
 * Starts the services this process runs (all of them by default, in one
 * broker) and stops them cleanly on SIGINT/SIGTERM.
 *   --demo    after start, run the sample batch (see bin/demo.ts)
 *   --exit    with --demo, stop once the demo has finished
 *   --repl    open the Moleculer REPL on this broker (`npm run repl`), with the
 *             extra commands `regions` (crawler nodes by region), `accounts` and
 *             `account-<command>` (the admin CLI's account commands)
 *   --print-config  print the resolved configuration (secrets masked) and exit,
 *             starting nothing: checks a node's environment, e.g. an image's
 */
import { createBroker } from '../services/index.js';
import { configFromProcess, type Config } from '../services/shared/config.js';
import { runDemo } from './demo.js';
import { runNode } from './lifecycle.js';
import { accountReplCommands } from './accounts/repl.js';
import { replCommands } from './region-table.js';
import { configView } from './config-view.js';

function loadOrExit(): Config {
  try {
    return configFromProcess();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
}

const config = loadOrExit();
const args = new Set(process.argv.slice(2));
if (args.has('--print-config')) {
  console.log(configView(config));
  process.exit(0);
}
const broker = await createBroker(
  config,
  config.services,
  undefined,
  args.has('--repl') ? { replCommands: [...replCommands, ...accountReplCommands(config)] } : {},
);

const stop = await runNode(broker, config);

if (args.has('--demo')) {
  try {
    await runDemo(broker, config);
  } catch (err) {
    console.error(`demo failed: ${(err as Error).message}`);
    await stop(1);
  }
  if (args.has('--exit')) await stop(0);
}

if (args.has('--repl')) {
  // The REPL stops the broker when its input ends; exit with it.
  broker.localBus.on('$broker.stopped', () => process.exit(0));
  await broker.repl();
}
