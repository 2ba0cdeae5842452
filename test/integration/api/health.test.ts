/**
 * The probes: live answers while the process runs; ready says whether the node
 * can serve, with the failing checks listed (MongoDB, the transporter, the
 * services the api calls), and back to ready when they return.
 */
import t from 'tap';
import type { ServiceBroker } from 'moleculer';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createBroker } from '../../../services/index.js';
import { loadConfig } from '../../../services/shared/config.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { Client } from '../../helpers/http.js';
import { natsUrl, uniqueDbName } from '../../helpers/servers.js';
import { until } from '../../helpers/wait.js';

const run = promisify(execFile);

t.test('a whole embedded node is live and ready', async (t) => {
  const svc = await startEmbedded(t);
  const live = await svc.client.get('/api/business/health/live');
  t.equal(live.status, 200);
  const ready = await svc.client.get('/api/business/health/ready');
  t.equal(ready.status, 200, ready.text);
  t.match(ready.body.data, { ready: true });
  t.same(
    ready.body.data.checks.map((c: { name: string }) => c.name),
    ['mongodb', 'service:tasks', 'service:users'],
  );
});

t.test('an api node alone over NATS, then without its MongoDB, is not ready', async (t) => {
  // Its own MongoDB-wire server, so stopping it disturbs no other test.
  const name = `health-${process.pid}`;
  const mongo = (action: string) =>
    run('bash', ['infra/mongo.sh', action, name], { env: { ...process.env, MONGO_URL: '' } });
  const mongoUrl = (await mongo('start')).stdout.trim();
  t.teardown(async () => {
    await mongo('stop');
  });
  const dbName = uniqueDbName('health');
  const config = loadConfig({
    MONGO_URL: mongoUrl,
    MONGO_DB: dbName,
    TRANSPORTER: natsUrl(),
    NAMESPACE: dbName,
    SERVICES: 'api',
    PORT: '0',
    LOG_LEVEL: 'error',
  });
  const broker: ServiceBroker = await createBroker(config, config.services);
  await broker.start();
  t.teardown(() => broker.stop());
  const client = new Client(
    `http://127.0.0.1:${broker.getLocalService('api')!.settings.port as number}`,
  );

  const alone = await client.get('/api/business/health/ready');
  t.equal(alone.status, 503);
  t.match(alone.body, { success: false, code: 503, data: { ready: false } });
  const failing = (body: typeof alone.body) =>
    (body.data.checks as { name: string; ok: boolean }[]).filter((c) => !c.ok).map((c) => c.name);
  t.same(failing(alone.body), ['service:tasks', 'service:users'], 'mongodb and NATS are fine');

  await mongo('stop');
  const noMongo = await client.get('/api/business/health/ready');
  t.equal(noMongo.status, 503);
  t.ok(failing(noMongo.body).includes('mongodb'), 'the stopped MongoDB is named');
  t.equal((await client.get('/api/business/health/live')).status, 200, 'still live');

  // MongoDB comes back on its port and a tasks/users node joins: ready again, nothing restarted.
  await mongo('restart');
  const back = await createBroker({ ...config, nodeId: `${dbName}-back` }, ['tasks', 'users']);
  await back.start();
  t.teardown(() => back.stop());
  const again = await until('ready again', async () => {
    const r = await client.get('/api/business/health/ready');
    return r.status === 200 ? r : false;
  });
  t.match(again.body, { success: true, code: 200, data: { ready: true } });
  t.same(failing(again.body), [], 'every check passes');
});
