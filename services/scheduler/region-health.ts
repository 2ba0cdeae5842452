/**
 * Which regions each crawler node can serve right now, from the health of its
 * proxy ports (`proxies.health` reports). A node advertises every region of
 * its ports; only regions with an active port count for placement, so work
 * pinned to a region whose ports are down waits (REGION_WAIT) instead of
 * bouncing off the node. Until a node has reported, its advert stands.
 */
import type { ProxyHealthReport } from '../shared/proxy-ports.js';
import type { CrawlerNode } from '../shared/contracts/advert.js';

export class RegionHealth {
  private readonly active = new Map<string, string[]>();

  update(report: ProxyHealthReport): void {
    const codes = report.ports.filter((p) => p.active).flatMap((p) => p.regionCode);
    this.active.set(report.node, [...new Set(codes)].sort());
  }

  forget(node: string): void {
    this.active.delete(node);
  }

  /** The nodes with their regions narrowed to those with an active port. */
  apply(nodes: CrawlerNode[]): CrawlerNode[] {
    return nodes.map((n) => {
      const regions = this.active.get(n.id);
      return regions ? { ...n, regions: n.regions.filter((r) => regions.includes(r)) } : n;
    });
  }
}
