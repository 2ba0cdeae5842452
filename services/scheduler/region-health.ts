/**
 * Which regions and proxy ports each crawler node can serve right now, from
 * the health of its ports (`proxies.health` reports). A node advertises every
 * port and region it has; only active ports and their regions count for
 * placement, so work pinned to a region whose ports are down waits
 * (REGION_WAIT) instead of bouncing off the node, and a web account pinned to
 * a port that is down is not claimed. Until a node has reported, its advert
 * stands.
 */
import type { ProxyHealthReport } from '../shared/proxy-ports.js';
import type { CrawlerNode } from '../shared/contracts/advert.js';

interface Active {
  regions: string[];
  ports: Set<string>;
}

export class RegionHealth {
  private readonly active = new Map<string, Active>();

  update(report: ProxyHealthReport): void {
    const up = report.ports.filter((p) => p.active);
    this.active.set(report.node, {
      regions: [...new Set(up.flatMap((p) => p.regionCode))].sort(),
      ports: new Set(up.map((p) => p.key)),
    });
  }

  forget(node: string): void {
    this.active.delete(node);
  }

  /** The nodes with their regions and proxy ports narrowed to the active ones. */
  apply(nodes: CrawlerNode[]): CrawlerNode[] {
    return nodes.map((n) => {
      const active = this.active.get(n.id);
      if (!active) return n;
      const narrowed: CrawlerNode = {
        ...n,
        regions: n.regions.filter((r) => active.regions.includes(r)),
      };
      if (n.proxyPorts) narrowed.proxyPorts = n.proxyPorts.filter((p) => active.ports.has(p.key));
      return narrowed;
    });
  }
}
