/**
 * The events stream in a cluster over real NATS: two api nodes, and the tasks,
 * scheduler and crawler roles on another node. Streams of one task opened on
 * both api nodes each see the leases, the results and the end, which happen
 * on the other node.
 */
import t from 'tap';
import type { ServiceBroker } from 'moleculer';
import mongoose from 'mongoose';
import { startSandboxServer } from '../../../sandbox/server.js';
import { createBroker } from '../../../services/index.js';
import { loadConfig } from '../../../services/shared/config.js';
import { Client } from '../../helpers/http.js';
import { openEvents } from '../../helpers/event-stream.js';
import { mongoUrl, natsUrl, uniqueDbName } from '../../helpers/servers.js';
import { until } from '../../helpers/wait.js';

const sandbox = await startSandboxServer({ latencyMs: 300 });
const dbName = uniqueDbName('events-cluster');
const env = {
  MONGO_URL: mongoUrl(),
  MONGO_DB: dbName,
  TRANSPORTER: natsUrl(),
  NAMESPACE: dbName,
  LOG_LEVEL: 'warn',
  PORT: '0',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '2',
  JWT_SECRET: 'events-cluster-secret-0123456789abcdef',
  // Long enough that only the cluster's events, not the timer, can show the changes in time.
  SSE_REFRESH_MS: '60000',
};
const brokers: ServiceBroker[] = [];
async function node(nodeId: string, services: string): Promise<ServiceBroker> {
  const config = loadConfig({ ...env, NODE_ID: nodeId, SERVICES: services });
  const broker = await createBroker(config, config.services);
  brokers.push(broker);
  await broker.start();
  return broker;
}
t.teardown(async () => {
  for (const b of brokers.reverse()) await b.stop();
  await sandbox.close();
  const c = await mongoose.createConnection(env.MONGO_URL, { dbName }).asPromise();
  await c.dropDatabase();
  await c.close();
});

const back = await node('back', 'tasks,users,scheduler,crawler');
const apis = [await node('api-1', 'api'), await node('api-2', 'api')];
const clients = apis.map(
  (b) => new Client(`http://127.0.0.1:${b.getLocalService('api')!.settings.port as number}`),
);
await until('both api nodes see the tasks service', async () =>
  apis.every((b) => b.registry.getServiceList({}).some((s) => s.name === 'tasks')),
);

t.test('streams on both api nodes follow a task run on another node', async (t) => {
  const user = await back.call<{ userId: number }, { name: string }>('users.createUser', {
    name: 'cluster',
  });
  const key = await back.call<{ apiKey: string }, { userId: number }>('users.createApiKey', {
    userId: user.userId,
  });
  const token = (await clients[0]!.post('/api/business/auth/token', { apiKey: key.apiKey })).body
    .data.accessToken as string;
  const submitted = await clients[1]!.post(
    '/api/business/monitor/task/batch/shared',
    {
      prompts: ['1', '2', '3', '4', '5', '6'],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
    },
    token,
  );
  t.equal(submitted.status, 200, submitted.text);
  const taskId = submitted.body.data.taskId as string;
  const streams = await Promise.all(
    clients.map((c) =>
      openEvents(`${c.baseUrl}/api/business/monitor/task/${taskId}/events`, { token }),
    ),
  );
  await Promise.all(streams.map((s) => s.ended));
  for (const [i, s] of streams.entries()) {
    const kinds = s.events.map((e) => e.event);
    t.equal(kinds[0], 'snapshot', `api-${i + 1}: snapshot first`);
    t.equal(kinds.at(-1), 'done', `api-${i + 1}: done last, well before the 60 s timer`);
    const statuses = s.events
      .filter((e) => e.event === 'subtask')
      .map((e) => (JSON.parse(e.data) as { status: string }).status);
    t.ok(statuses.includes('processing'), `api-${i + 1}: leases heard`);
    t.equal(statuses.filter((x) => x === 'completed').length, 6, `api-${i + 1}: every result`);
  }
});
