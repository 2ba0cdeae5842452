/**
 * A cluster that runs no accounts service has no usable account: work on a
 * real site's web channel is refused at once, naming the missing account,
 * though a crawler node runs the site; the simulated web site runs as ever.
 */
import t from 'tap';
import { errorEnvelopeSchema } from '../../../services/shared/contracts/http.js';
import { snapshotCounts, startEmbedded } from '../../helpers/cluster.js';
import { natsUrl } from '../../helpers/servers.js';
import { untilTaskFinal } from '../../helpers/task-final.js';
import { startWebStandIn } from '../../helpers/web-crawler-stand-in.js';
import { plainResult } from '../../helpers/results.js';
import type { SettleRequest } from '../../../services/shared/contracts/report.js';

const namespace = `webnoaccounts${process.pid}`;
const svc = await startEmbedded(t, {
  SERVICES: 'api,tasks,users,scheduler',
  TRANSPORTER: natsUrl(),
  NAMESPACE: namespace,
  PLATFORM_CHANNELS: 'deepseek=web',
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

const SUBMIT = '/api/business/monitor/task/batch/shared';

t.test('a real site’s web work is refused at once; the simulated one runs', async (t) => {
  const conn = await svc.db();
  const before = await snapshotCounts(conn);
  const refused = await svc.client.post(
    SUBMIT,
    {
      prompts: ['who answers'],
      platforms: [
        { platform: 'deepseek', mode: 'standard' },
        { platform: 'sandbox-web', mode: 'standard' },
      ],
    },
    user.token,
  );
  t.equal(refused.status, 400);
  t.match(errorEnvelopeSchema.parse(refused.body).errors, [
    {
      field: 'platforms[0].platform',
      message: /^deepseek is unavailable on the web channel: no usable account \(/,
    },
  ]);
  t.same(await snapshotCounts(conn), before, 'nothing stored');

  const res = await svc.client.post(
    SUBMIT,
    { prompts: ['who answers'], platforms: [{ platform: 'sandbox-web', mode: 'standard' }] },
    user.token,
  );
  t.equal(res.status, 200, res.text);
  const taskId = res.body.data.taskId as string;
  const final = await untilTaskFinal(svc.client, user.token, taskId, 30_000, 100);
  t.equal(final.body.data.status, 'completed');
  t.strictSame(
    node.leases.map((l) => [l.platform, l.account]),
    [['sandbox-web', undefined]],
    'the simulated site’s sub task reached the node, without an account',
  );
});
