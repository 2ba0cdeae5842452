/**
 * Starts the services this process runs (all of them by default, in one
 * broker) and stops them cleanly on SIGINT/SIGTERM.
 *   --demo    after start, run the sample batch (see bin/demo.ts)
 *   --exit    with --demo, stop once the demo has finished
 *   --repl    open the Moleculer REPL on this broker (`npm run repl`)
 */
import { createBroker } from '../services/index.js';
import { configFromProcess, type Config } from '../services/shared/config.js';
import { runDemo } from './demo.js';

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
const broker = await createBroker(config);

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await broker.stop().catch((err: unknown) => console.error(err));
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  await broker.start();
} catch (err) {
  console.error(`start failed: ${(err as Error).message}`);
  await stop(1);
}
const api = broker.getLocalService('api');
const apiUrl = api
  ? ` api=http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${api.settings.port}`
  : '';
console.log(`READY node=${config.nodeId} services=${config.services.join(',')}${apiUrl}`);

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
