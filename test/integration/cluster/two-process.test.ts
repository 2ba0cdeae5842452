import t from 'tap';
import mongoose from 'mongoose';
import { Client } from '../../helpers/http.js';
import { runProcess, startProcess } from '../../../infra/processes.js';
import { mongoUrl, natsUrl, uniqueDbName } from '../../helpers/servers.js';

const env = {
  MONGO_URL: mongoUrl(),
  MONGO_DB: uniqueDbName('twoprocess'),
  TRANSPORTER: natsUrl(),
  NAMESPACE: `t${Date.now()}`,
  LOG_LEVEL: 'warn',
  PORT: '0',
};

t.teardown(async () => {
  const c = await mongoose.createConnection(env.MONGO_URL, { dbName: env.MONGO_DB }).asPromise();
  await c.dropDatabase();
  await c.close();
});

t.test('an api node and a tasks/users node over NATS serve the API together', async (t) => {
  const apiNode = startProcess('bin/serve.ts', [], { ...env, SERVICES: 'api', NODE_ID: 'api-1' });
  let backNode = startProcess('bin/serve.ts', [], {
    ...env,
    SERVICES: 'tasks,users',
    NODE_ID: 'back-1',
  });
  t.teardown(() => Promise.all([apiNode.stop(), backNode.stop()]));
  const [, url] = await apiNode.waitFor(/READY node=api-1 services=api api=(\S+)/);
  await backNode.waitFor(/READY node=back-1/);
  const client = new Client(url!);

  const created = await runProcess(
    'bin/admin.ts',
    ['create-user', '--name', 'cluster', '--json'],
    env,
  );
  t.equal(created.code, 0, created.output);
  const { apiKey } = JSON.parse(created.output.trim()) as { apiKey: string };

  // Discovery over NATS takes a moment after both nodes are up.
  let token: string | undefined;
  for (let i = 0; i < 100 && !token; i++) {
    const r = await client.post('/api/business/auth/token', { apiKey });
    if (r.status === 200) token = r.body.data.accessToken;
    else await new Promise((res) => setTimeout(res, 100));
  }
  t.ok(token, 'the api node got a token from the users service on the other node');

  const submitted = await client.post(
    '/api/business/monitor/task/batch/shared',
    {
      prompts: ['a', 'b', 'c'],
      platforms: [
        { platform: 'sandbox', mode: 'search' },
        { platform: 'glm', mode: 'standard' },
      ],
    },
    token,
  );
  t.equal(submitted.status, 200);
  t.equal(submitted.body.data.totalTask, 6);
  const status = await client.get(submitted.body.data.pollUrl, token);
  t.equal(status.status, 200);
  t.equal(status.body.data.message, '0/6 completed, 0 failed');
  t.same(
    status.body.data.subTaskList.map((s: { platform: string }) => s.platform),
    ['sandbox', 'zhipu', 'sandbox', 'zhipu', 'sandbox', 'zhipu'],
  );
  const list = await client.get('/api/business/monitor/task/list', token);
  t.equal(list.body.data.total, 1);

  await backNode.stop('SIGKILL');
  let down = 0;
  for (let i = 0; i < 100 && down !== 503; i++) {
    down = (await client.get('/api/business/monitor/task/list', token)).status;
    if (down !== 503) await new Promise((res) => setTimeout(res, 100));
  }
  t.equal(down, 503, 'with the tasks node gone the api answers 503');

  backNode = startProcess('bin/serve.ts', [], {
    ...env,
    SERVICES: 'tasks,users',
    NODE_ID: 'back-2',
  });
  await backNode.waitFor(/READY node=back-2/);
  let back = 0;
  for (let i = 0; i < 100 && back !== 200; i++) {
    back = (await client.get('/api/business/monitor/task/list', token)).status;
    if (back !== 200) await new Promise((res) => setTimeout(res, 100));
  }
  t.equal(back, 200, 'a new tasks node takes over and the data is all there');
});
