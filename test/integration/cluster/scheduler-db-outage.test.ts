/**
 * A node leaving while MongoDB is unreachable: the active scheduler's
 * expiry of that node's leases fails, is logged, and the process goes on
 * (it used to end it with an unhandled rejection); once MongoDB is back the
 * scheduler still leads and works.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import mongoose from 'mongoose';
import { ServiceBroker } from 'moleculer';
import { createBroker } from '../../../services/index.js';
import { loadConfig } from '../../../services/shared/config.js';
import { natsUrl, uniqueDbName } from '../../helpers/servers.js';
import { until } from '../../helpers/wait.js';

const run = promisify(execFile);

t.test('a node leaves during a MongoDB outage: logged, the scheduler goes on', async (t) => {
  const name = `outage-${process.pid}`;
  const mongo = (action: string) =>
    run('bash', ['infra/mongo.sh', action, name], { env: { ...process.env, MONGO_URL: '' } });
  const mongoUrl = (await mongo('start')).stdout.trim();
  t.teardown(async () => {
    await mongo('stop');
  });
  const rejections: unknown[] = [];
  const onRejection = (err: unknown) => rejections.push(err);
  process.on('unhandledRejection', onRejection);
  t.teardown(() => void process.off('unhandledRejection', onRejection));

  const dbName = uniqueDbName('outage');
  const config = loadConfig({
    MONGO_URL: mongoUrl,
    MONGO_DB: dbName,
    TRANSPORTER: natsUrl(),
    NAMESPACE: dbName,
    SERVICES: 'scheduler',
    NODE_ID: `${dbName}-scheduler`,
    LOG_LEVEL: 'error',
    // Renewed every 10 s: the node leaves well before the lock check meets the outage.
    LEADER_TTL_MS: '30000',
  });
  const scheduler = await createBroker(config, config.services);
  const warnings: string[] = [];
  await scheduler.start();
  t.teardown(() => scheduler.stop());
  const logger = scheduler.getLocalService('scheduler')!.logger;
  logger.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));

  const db = await mongoose.createConnection(mongoUrl, { dbName }).asPromise();
  t.teardown(() => db.close());
  const lockExpiry = async () =>
    ((await db.collection('locks').findOne({ owner: config.nodeId }))?.expiresAt as number) ?? 0;
  const before = await until('the scheduler leads', lockExpiry, 20_000);

  const visitor = new ServiceBroker({
    namespace: dbName,
    nodeID: `${dbName}-visitor`,
    transporter: natsUrl(),
    logger: false,
  });
  await visitor.start();
  await until('the scheduler sees the visitor', async () =>
    scheduler.registry.nodes.has(`${dbName}-visitor`),
  );

  await mongo('stop');
  await visitor.stop();
  await until(
    'the failed expiry is logged',
    async () => warnings.some((w) => w.includes(`expiring the leases of ${dbName}-visitor failed`)),
    20_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; warnings: ${JSON.stringify(warnings)}`);
  });
  t.same(rejections, [], 'no unhandled rejection');

  await mongo('restart');
  await until(
    'the scheduler renews its lock again',
    async () => (await lockExpiry()) > before,
    30_000,
  );
  t.ok(scheduler.getLocalService('scheduler'), 'the scheduler service still runs');
});
