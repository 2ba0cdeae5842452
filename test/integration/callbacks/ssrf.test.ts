/**
 * Callback addresses that reach internal hosts are refused: with 400 at
 * submission and on the default address (nothing stored), and again when
 * connecting, for a name as well as a literal address.
 */
import t from 'tap';
import { startSandboxServer } from '../../../sandbox/server.js';
import { callbacksService } from '../../../services/callbacks/callbacks.service.js';
import { snapshotCounts, startEmbedded } from '../../helpers/cluster.js';
import { startReceiver } from '../../../bench/webhook-receiver.js';
import { until } from '../../helpers/wait.js';

const M = '/api/business/monitor';
const REFUSED = [
  'http://127.0.0.1/hook',
  'http://127.1/hook',
  'http://localhost/hook',
  'http://localhost./hook',
  'http://api.localhost/hook',
  'http://[::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://10.1.2.3/hook',
  'http://172.16.5.4/hook',
  'http://172.31.0.1/hook',
  'http://192.168.0.1/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://0.0.0.0/hook',
  'http://[fe80::1]/hook',
  'http://[fd00::1]/hook',
  'ftp://example.com/hook',
  'file:///etc/passwd',
  'gopher://example.com/',
  'javascript:alert(1)',
];

t.test('refused at submission and as the default address, nothing stored', async (t) => {
  const svc = await startEmbedded(t);
  const user = await svc.newUser();
  const conn = await svc.db();
  const before = await snapshotCounts(conn);
  for (const callbackUrl of REFUSED) {
    const res = await svc.client.post(
      `${M}/task/batch/shared`,
      { prompts: ['q'], platforms: [{ platform: 'sandbox', mode: 'standard' }], callbackUrl },
      user.token,
    );
    t.equal(res.status, 400, `submission with ${callbackUrl}`);
    t.match(res.body.errors, [{ field: 'callbackUrl' }], callbackUrl);
    const put = await svc.client.request('PUT', `${M}/callback`, {
      token: user.token,
      body: { callbackUrl },
    });
    t.equal(put.status, 400, `default address ${callbackUrl}`);
  }
  t.same(await snapshotCounts(conn), before, 'no task stored');
  t.equal((await svc.client.get(`${M}/callback`, user.token)).body.data.callbackUrl, null);

  const both = await svc.client.post(
    `${M}/task/batch/shared`,
    {
      prompts: [],
      platforms: [{ platform: 'sandbox', mode: 'standard' }],
      callbackUrl: 'http://10.0.0.1/',
    },
    user.token,
  );
  t.same(
    both.body.errors.map((e: { field: string }) => e.field),
    ['prompts', 'callbackUrl'],
    'listed with the other problems',
  );

  for (const callbackUrl of ['http://93.184.216.34/hook', 'https://hooks.example.com/hook']) {
    const res = await svc.client.post(
      `${M}/task/batch/shared`,
      { prompts: ['q'], platforms: [{ platform: 'sandbox', mode: 'standard' }], callbackUrl },
      user.token,
    );
    t.equal(res.status, 200, `${callbackUrl} is accepted`);
  }
  const put = await svc.client.request('PUT', `${M}/callback`, {
    token: user.token,
    body: { callbackUrl: 'https://hooks.example.com/hook' },
  });
  t.equal(put.status, 200);
  const missing = await svc.client.request('PUT', `${M}/callback`, { token: user.token, body: {} });
  t.match(missing.body.errors, [{ field: 'callbackUrl', message: /required/ }]);
});

t.test(
  'checked again when connecting: a callbacks node without the allow-list sends nothing',
  async (t) => {
    const sandbox = await startSandboxServer({ latencyMs: 10 });
    const receiver = await startReceiver();
    t.teardown(async () => {
      await receiver.close();
      await sandbox.close();
    });
    // Submission allows loopback; the callbacks service below does not.
    const svc = await startEmbedded(t, {
      SERVICES: 'api,tasks,users,scheduler,crawler',
      SANDBOX_URL: sandbox.url,
      CALLBACK_ALLOW_CIDRS: '127.0.0.0/8,::1/128',
    });
    svc.broker.createService(
      callbacksService({
        ...svc.config,
        callbacks: { ...svc.config.callbacks, retryDelaysMs: [50], pollMs: 20, allowCidrs: [] },
      }),
    );
    await svc.broker.waitForServices('callbacks');
    const user = await svc.newUser();
    const urls = [receiver.plan('/literal', []), `http://localhost:${receiver.port}/name`];
    for (const callbackUrl of urls) {
      const res = await svc.client.post(
        `${M}/task/batch/shared`,
        { prompts: ['q'], platforms: [{ platform: 'sandbox', mode: 'standard' }], callbackUrl },
        user.token,
      );
      t.equal(res.status, 200);
      const taskId = res.body.data.taskId as string;
      const d = await until('the delivery to fail', async () => {
        const r = await svc.client.get(`${M}/task/${taskId}/callbacks`, user.token);
        return r.body.data.status === 'FAILED' ? r.body.data : undefined;
      });
      t.equal(d.attempts.length, 2);
      t.match(d.attempts[0].error, /^address refused: .*loopback/, d.attempts[0].error);
    }
    t.same(receiver.received, [], 'the receiver never saw a request');

    // callbacks.deliver (a monitor's alert) applies the submission's rule before queueing.
    const conn = await svc.db();
    const stored = await conn.collection('deliveries').countDocuments();
    for (const url of [...urls, 'http://10.1.2.3/hook', 'http://[fd00::1]/hook']) {
      const err = await svc.broker
        .call('callbacks.deliver', {
          kind: 'monitor.changes',
          subjectId: 'run-1',
          userId: user.userId,
          url,
          body: { monitorId: 'm', runId: 'run-1', changes: [] },
        })
        .then(
          () => undefined,
          (e: { code?: number; data?: unknown }) => e,
        );
      t.match(
        err,
        { code: 400, data: { errors: [{ field: 'url', message: /^must not point/ }] } },
        url,
      );
    }
    const all = await svc.broker
      .call('callbacks.deliver', {
        kind: 'task',
        subjectId: '',
        userId: 0,
        url: 'ftp://x',
        body: [],
      })
      .then(
        () => undefined,
        (e: { data?: { errors: { field: string }[] } }) => e.data?.errors,
      );
    t.same(
      new Set(all?.map((e) => e.field)),
      new Set(['kind', 'subjectId', 'userId', 'url', 'body']),
      'every problem in one 400',
    );
    t.equal(await conn.collection('deliveries').countDocuments(), stored, 'nothing queued');
  },
);
