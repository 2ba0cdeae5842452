/**
 * A crawler node for the web scheduling tests: a broker on the test NATS
 * server that advertises (platform, web) pairs through its proxy ports,
 * takes every lease it is sent and runs it as the test says (typically: hold
 * the account for a moment, give it back with a verdict, report the attempt).
 * The real executor's browser work is not the subject here; the scheduler's
 * placement and the accounts' holds are.
 */
import { ServiceBroker, type Context } from 'moleculer';
import type { CrawlerAdvert } from '../../services/shared/contracts/advert.js';
import type {
  AcceptAnswer,
  AcceptRequest,
  LeaseMessage,
} from '../../services/shared/contracts/lease.js';
import type { ProxyPortHealth } from '../../services/shared/proxy-ports.js';
import type { TapLike } from './cluster.js';

export interface WebStandIn {
  nodeID: string;
  broker: ServiceBroker;
  /** Every lease the node took, in order. */
  leases: LeaseMessage[];
  stop(): Promise<void>;
}

export async function startWebStandIn(
  t: TapLike,
  o: {
    transporter: string;
    namespace: string;
    nodeID: string;
    platforms: string[];
    /** Its proxy ports and their health (`crawler.ports`, `proxies.health`). */
    ports: ProxyPortHealth[];
    capacity: number;
    /** Runs one lease after the node took it (not awaited by the accept call). */
    run: (lease: LeaseMessage, broker: ServiceBroker) => Promise<void>;
  },
): Promise<WebStandIn> {
  const advert: CrawlerAdvert = {
    capacity: o.capacity,
    regions: [...new Set(o.ports.flatMap((p) => p.regionCode))],
    proxyPorts: o.ports.map((p) => ({
      key: p.key,
      port: p.port,
      province: p.province,
      city: p.city,
      regionCode: p.regionCode,
      outIp: p.outIp,
    })),
    channels: ['web'],
    platforms: o.platforms,
    pairs: o.platforms.map((p) => `${p}:web`),
  };
  const broker = new ServiceBroker({
    namespace: o.namespace,
    nodeID: o.nodeID,
    transporter: o.transporter,
    logger: false,
    heartbeatInterval: 2,
    heartbeatTimeout: 6,
    retryPolicy: { enabled: false },
    metadata: { crawler: advert },
  });
  const leases: LeaseMessage[] = [];
  const running = new Set<Promise<void>>();
  broker.createService({
    name: 'crawler',
    actions: {
      accept(ctx: Context<AcceptRequest>): AcceptAnswer {
        for (const lease of ctx.params.leases) {
          leases.push(lease);
          const job = o.run(lease, broker).finally(() => running.delete(job));
          running.add(job);
        }
        return { results: ctx.params.leases.map(() => ({ accepted: true })) };
      },
      ports: () => ({ node: o.nodeID, ports: o.ports }),
    },
  });
  await broker.start();
  await broker.broadcast('proxies.health', { node: o.nodeID, ports: o.ports });
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await Promise.allSettled([...running]);
      await broker.stop();
    })());
  t.teardown(stop);
  return { nodeID: o.nodeID, broker, leases, stop };
}
