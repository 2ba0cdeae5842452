/**
 * Roles: `GET …/me` says who the token's user is; the operator routes answer
 * only users with the `operator` role, checked on every request, and show the
 * crawler nodes, their ports, the accounts and any task's callback deliveries.
 */
import t from 'tap';
import { startEmbedded } from '../../helpers/cluster.js';
import { startSandboxServer } from '../../../sandbox/server.js';

const sandbox = await startSandboxServer({ latencyMs: 20 });
t.teardown(() => sandbox.close());
const svc = await startEmbedded(t, {
  SERVICES: 'all',
  SANDBOX_URL: sandbox.url,
  CRAWLER_CAPACITY: '3',
});
const O = '/api/business/operator';

t.test('operator routes need the operator role, granted and withdrawn at once', async (t) => {
  const customer = await svc.newUser('customer');
  const ops = await svc.newUser('ops');
  const me = await svc.client.get('/api/business/monitor/me', ops.token);
  t.same(me.body.data, { userId: ops.userId, name: 'ops', role: 'user' });

  const refused = await svc.client.get(`${O}/nodes`, ops.token);
  t.equal(refused.status, 403);
  t.match(refused.body, { success: false, code: 403, message: /operator role required/ });
  t.equal((await svc.client.get(`${O}/nodes`)).status, 401, 'no token: 401');

  await svc.broker.call('users.setRole', { userId: ops.userId, role: 'operator' });
  t.equal(
    (await svc.client.get('/api/business/monitor/me', ops.token)).body.data.role,
    'operator',
    'the same token now belongs to an operator',
  );

  const nodes = await svc.client.get(`${O}/nodes`, ops.token);
  t.equal(nodes.status, 200, nodes.text);
  t.match(nodes.body.data, [{ nodeId: svc.config.nodeId, capacity: 3, running: 0 }]);
  t.ok((nodes.body.data[0].platforms as string[]).includes('sandbox'));
  const ports = await svc.client.get(`${O}/ports`, ops.token);
  t.same(ports.body.data, [], 'a node without proxy ports lists none');
  const accounts = await svc.client.get(`${O}/accounts`, ops.token);
  t.equal(accounts.status, 200);
  t.ok(Array.isArray(accounts.body.data));

  const submitted = await svc.client.post(
    '/api/business/monitor/task/batch/shared',
    { prompts: ['hello'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    customer.token,
  );
  const taskId = submitted.body.data.taskId as string;
  const theirs = await svc.client.get(`/api/business/monitor/task/${taskId}/callbacks`, ops.token);
  t.equal(theirs.status, 404, "the owner's route still hides another user's task");
  const callbacks = await svc.client.get(`${O}/task/${taskId}/callbacks`, ops.token);
  t.equal(callbacks.status, 200, callbacks.text);
  t.match(callbacks.body.data, { taskId });
  const unknown = await svc.client.get(
    `${O}/task/00000000-0000-4000-8000-000000000000/callbacks`,
    ops.token,
  );
  t.equal(unknown.status, 404);

  await svc.broker.call('users.setRole', { userId: ops.userId, role: 'user' });
  t.equal((await svc.client.get(`${O}/nodes`, ops.token)).status, 403, 'withdrawn at once');
});
