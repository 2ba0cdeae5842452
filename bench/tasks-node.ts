/**
 * A tasks-only node for bench/monitors.bench.ts (argv: MongoDB URL, database,
 * NATS URL, namespace): it answers the leader's `tasks.submit` calls in its
 * own process, so the benchmark's process CPU is the leader's alone. Prints
 * "ready" once started; stops on SIGTERM.
 */
import { createBroker } from '../services/index.js';
import { loadConfig } from '../services/shared/config.js';

const [mongoUrl, mongoDb, natsUrl, namespace] = process.argv.slice(2);
const config = loadConfig({
  MONGO_URL: mongoUrl!,
  MONGO_DB: mongoDb!,
  TRANSPORTER: natsUrl!,
  NAMESPACE: namespace!,
  LOG_LEVEL: 'warn',
  SERVICES: 'tasks',
});
const broker = await createBroker(config, config.services);
await broker.start();
process.on('SIGTERM', () => void broker.stop().then(() => process.exit(0)));
console.log('ready');
