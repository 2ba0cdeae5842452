/**
 * A stand-in crawler node for the proxy registry's input only: a broker on the
 * test NATS server whose metadata carries a crawler advert and whose `crawler`
 * service answers `ports` with the node's health report and broadcasts
 * `proxies.health` when told. Real crawler nodes replace it once they check
 * their own ports.
 */
import { ServiceBroker } from 'moleculer';
import type { CrawlerAdvert } from '../../services/shared/contracts/advert.js';
import type { ProxyHealthReport, ProxyPortHealth } from '../../services/shared/proxy-ports.js';
import type { TapLike } from './cluster.js';

export interface CrawlerPortsNode {
  nodeID: string;
  /** Sets the node's ports; `ports` answers them from now on, without telling anyone. */
  set(ports: ProxyPortHealth[]): void;
  /** Sets the ports and broadcasts them as a round of health checks does. */
  publish(ports: ProxyPortHealth[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startCrawlerPortsNode(
  t: TapLike,
  o: { transporter: string; namespace: string; nodeID: string; ports: ProxyPortHealth[] },
): Promise<CrawlerPortsNode> {
  let ports = o.ports;
  const report = (): ProxyHealthReport => ({ node: o.nodeID, ports });
  const advert: CrawlerAdvert = {
    capacity: 1,
    regions: [...new Set(ports.flatMap((p) => p.regionCode))],
    channels: [],
    platforms: [],
  };
  const broker = new ServiceBroker({
    namespace: o.namespace,
    nodeID: o.nodeID,
    transporter: o.transporter,
    logger: false,
    heartbeatInterval: 2,
    heartbeatTimeout: 6,
    metadata: { crawler: advert },
  });
  broker.createService({ name: 'crawler', actions: { ports: () => report() } });
  await broker.start();
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= broker.stop());
  t.teardown(stop);
  return {
    nodeID: o.nodeID,
    set(next) {
      ports = next;
    },
    async publish(next) {
      ports = next;
      await broker.broadcast('proxies.health', report());
    },
    stop,
  };
}

/** A port record as a crawler node reports it. */
export function portHealth(
  host: string,
  port: number,
  where: { province: string; city: string; regionCode: string[] },
  active: boolean,
  outIp = `203.0.113.${port % 250}`,
): ProxyPortHealth {
  return {
    key: `${host}:${port}`,
    port,
    ...where,
    outIp,
    active,
    checkedAt: Date.now(),
    observedIp: active ? outIp : null,
    error: active ? null : 'proxy check failed',
  };
}
