/**
 * Crawler nodes as the scheduler sees them (from Moleculer node metadata) and
 * the choice of a node for a sub task, pure.
 */
import type { Channel } from '../shared/platforms.js';
import { runsPair, type CrawlerNode } from '../shared/contracts/advert.js';

/** Nodes that may be given new work: every live one that is not draining. */
export function placeableNodes(nodes: readonly CrawlerNode[]): CrawlerNode[] {
  return nodes.filter((n) => n.draining !== true);
}

export interface Placement {
  platform: string;
  channel: Channel;
  regionCode: string | null;
  lastNode: string | null;
}

/** Nodes that can run the work at all, ignoring their load. */
export function capableNodes(nodes: readonly CrawlerNode[], p: Placement): CrawlerNode[] {
  return nodes.filter(
    (n) =>
      runsPair(n, p.platform, p.channel) &&
      (p.regionCode === null || n.regions.includes(p.regionCode)),
  );
}

/**
 * The node with room that should take the work: another node than the last
 * attempt's when one has room, then the one with the most free slots; a
 * node's prefetch is room too, after every free slot (it starts those leases
 * as its own slots free).
 */
export function pickNode(
  nodes: readonly CrawlerNode[],
  p: Placement,
  busy: (nodeId: string) => number,
): CrawlerNode | undefined {
  let best: CrawlerNode | undefined;
  let bestScore = -Infinity;
  for (const n of capableNodes(nodes, p)) {
    const free = n.capacity - busy(n.id);
    if (free + (n.prefetch ?? 0) <= 0) continue;
    // Free slots rank before waiting room (free is negative in the waiting room).
    const score = (n.id === p.lastNode ? 0 : 1_000_000) + free;
    if (score > bestScore) {
      best = n;
      bestScore = score;
    }
  }
  return best;
}
