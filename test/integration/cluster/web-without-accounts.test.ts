/**
 * A cluster that runs no accounts service has no usable account: web sub
 * tasks of a real site wait ACCOUNT_WAIT_MS, then fail saying so, and never
 * reach a crawler node; api work and the simulated web site run as ever.
 */
import t from 'tap';
import { startEmbedded } from '../../helpers/cluster.js';
import { natsUrl } from '../../helpers/servers.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { startWebStandIn } from '../../helpers/web-crawler-stand-in.js';
import { plainResult } from '../../helpers/results.js';
import type { SettleRequest } from '../../../services/shared/contracts/report.js';

const ACCOUNT_WAIT_MS = 2_000;
const namespace = `webnoaccounts${process.pid}`;
const svc = await startEmbedded(t, {
  SERVICES: 'api,tasks,users,scheduler',
  TRANSPORTER: natsUrl(),
  NAMESPACE: namespace,
  PLATFORM_CHANNELS: 'deepseek=web',
  ACCOUNT_WAIT_MS: String(ACCOUNT_WAIT_MS),
});
const node = await startWebStandIn(t, {
  transporter: natsUrl(),
  namespace,
  nodeID: 'web-any',
  platforms: ['deepseek', 'sandbox-web'],
  ports: [],
  capacity: 2,
  run: async (lease, broker) => {
    await broker.call<unknown, SettleRequest>('tasks.settleBatch', {
      reports: [
        {
          subTaskId: lease.subTaskId,
          taskId: lease.taskId,
          token: lease.token,
          attempt: lease.attempt,
          result: plainResult,
        },
      ],
    });
  },
});
const user = await svc.newUser('web');

t.test(
  'a real site’s web sub task fails for want of an account; the simulated one runs',
  async (t) => {
    const started = Date.now();
    const res = await svc.client.post(
      '/api/business/monitor/task/batch/shared',
      {
        prompts: ['who answers'],
        platforms: [
          { platform: 'deepseek', mode: 'standard' },
          { platform: 'sandbox-web', mode: 'standard' },
        ],
      },
      user.token,
    );
    t.equal(res.status, 200, res.status === 200 ? 'submitted' : res.text);
    const taskId = res.body.data.taskId as string;
    const final = await untilTaskFinal(svc.client, user.token, taskId, 30_000, 100);
    t.equal(final.body.data.status, 'partial_completed');
    t.ok(Date.now() - started >= ACCOUNT_WAIT_MS, 'not before the wait');
    const subs = await (await svc.db()).collection('subtasks').find({ taskId }).toArray();
    const byPlatform = new Map(subs.map((s) => [s.platform as string, s]));
    t.match(byPlatform.get('deepseek'), {
      status: 'failed',
      errorMessage: 'no usable deepseek web account in any region (waited 2 s)',
    });
    t.match(byPlatform.get('sandbox-web'), { status: 'completed' });
    t.strictSame(
      node.leases.map((l) => [l.platform, l.account]),
      [['sandbox-web', undefined]],
      'only the simulated site’s sub task reached the node, without an account',
    );
  },
);
