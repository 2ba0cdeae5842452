/**
 * The live crawler nodes with what each is running and the state of its proxy
 * ports, asked of each node directly: the REPL's `regions` table and the
 * operator routes show it. A node that does not answer shows `running: null`
 * and no ports.
 */
import type { ServiceBroker } from 'moleculer';
import { crawlerNodes, type CrawlerNode } from './contracts/advert.js';
import type { ProxyHealthReport } from './proxy-ports.js';

export interface NodeState {
  node: CrawlerNode;
  running: number | null;
  ports: ProxyHealthReport['ports'];
}

export async function nodeStates(broker: ServiceBroker): Promise<NodeState[]> {
  const nodes = crawlerNodes(
    broker.registry.nodes.list({ onlyAvailable: true, withServices: false }),
  );
  return Promise.all(
    nodes.map(async (node) => {
      const [status, ports] = await Promise.all([
        broker
          .call<{ running: number }, object>('crawler.status', {}, { nodeID: node.id })
          .catch(() => null),
        broker
          .call<ProxyHealthReport, object>('crawler.ports', {}, { nodeID: node.id })
          .catch(() => null),
      ]);
      return { node, running: status?.running ?? null, ports: ports?.ports ?? [] };
    }),
  );
}
