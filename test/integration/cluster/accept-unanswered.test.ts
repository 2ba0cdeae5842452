/**
 * A crawler node that leaves while the scheduler's `crawler.accept` call is
 * under way (kill -9 in the middle of a dispatch, as in faults/process-kills):
 * the node may have taken the lease and asked the platform, so the attempt
 * stays spent. Before, the call's failure gave the lease back as never
 * started (attempts 1 → 0), and the sub task's record hid a platform request.
 */
import t from 'tap';
import { ServiceBroker, type Context } from 'moleculer';
import type { CrawlerAdvert } from '../../../services/shared/contracts/advert.js';
import type { AcceptRequest, LeaseMessage } from '../../../services/shared/contracts/lease.js';
import { startEmbedded } from '../../helpers/cluster.js';
import { natsUrl } from '../../helpers/servers.js';
import { until } from '../../helpers/wait.js';

const namespace = `acceptgone${process.pid}`;
const svc = await startEmbedded(t, {
  SERVICES: 'api,tasks,users,scheduler',
  TRANSPORTER: natsUrl(),
  NAMESPACE: namespace,
});
const user = await svc.newUser('gone');

const advert: CrawlerAdvert = {
  capacity: 1,
  regions: [],
  channels: ['api'],
  platforms: ['sandbox'],
  pairs: ['sandbox:api'],
};
const node = new ServiceBroker({
  namespace,
  nodeID: 'takes-then-dies',
  transporter: natsUrl(),
  logger: false,
  heartbeatInterval: 2,
  heartbeatTimeout: 6,
  metadata: { crawler: advert },
});
let taken: (lease: LeaseMessage) => void;
const firstLease = new Promise<LeaseMessage>((resolve) => (taken = resolve));
node.createService({
  name: 'crawler',
  actions: {
    // Takes the lease (as a real node starts the platform request at once)
    // and dies before its answer goes out: the answer never comes.
    accept(ctx: Context<AcceptRequest>) {
      taken(ctx.params.leases[0]!);
      return new Promise(() => undefined);
    },
  },
});
await node.start();
t.teardown(() => node.stop());

t.test('the attempt of a lease whose node died mid-accept stays counted', async (t) => {
  const res = await svc.client.post(
    '/api/business/monitor/task/batch/shared',
    { prompts: ['who answers'], platforms: [{ platform: 'sandbox', mode: 'standard' }] },
    user.token,
  );
  t.equal(res.status, 200);
  const lease = await firstLease;
  t.equal(lease.attempt, 1);
  await node.stop();

  const conn = await svc.db();
  const sub = await until(
    'the sub task to leave its lease',
    async () => {
      const doc = await conn.collection('subtasks').findOne({ _id: lease.subTaskId as never });
      return doc && doc.status !== 'processing' ? doc : undefined;
    },
    30_000,
    50,
  );
  t.equal(sub.status, 'pending', 'a retry round');
  t.equal(sub.attempts, 1, 'the attempt that reached the node is counted');
  t.equal(sub.errorMessage, 'crawler node takes-then-dies disconnected');
});
