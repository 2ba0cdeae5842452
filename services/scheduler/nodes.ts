/**
 * Crawler nodes as the scheduler sees them (from Moleculer node metadata) and
 * the choice of a node for a sub task, pure.
 */
import type { Channel } from '../shared/platforms.js';
import type { ProxyPortInfo } from '../shared/proxy-ports.js';

/** What a crawler node advertises in its metadata under `crawler`. */
export interface CrawlerAdvert {
  /** Region codes of the node's proxy ports; work pinned to a region goes to a node serving it. */
  /** Sub tasks the node runs at once. */
  capacity: number;
  /**
   * Leases the node holds beyond its capacity, waiting to start the moment a
   * slot frees, so the round trip of reporting one result and leasing the
   * next overlaps platform work instead of idling the slot.
   */
  prefetch?: number;
  regions: string[];
  /** The node's proxy ports as configured (their health comes in `proxies.health`). */
  proxyPorts?: ProxyPortInfo[];
  channels: Channel[];
  platforms: string[];
  /**
   * The (platform, channel) pairs the node has a driver for, as `pairKey`s.
   * A node of an older version leaves it out: then every platform it lists
   * counts on every channel it lists.
   */
  pairs?: string[];
  /** The node is stopping: it finishes what it runs and takes nothing new. */
  draining?: boolean;
}

export interface CrawlerNode extends CrawlerAdvert {
  id: string;
}

export function crawlerNodes(
  list: { id: string; available?: boolean; metadata?: unknown }[],
): CrawlerNode[] {
  const nodes: CrawlerNode[] = [];
  for (const n of list) {
    const advert = (n.metadata as { crawler?: CrawlerAdvert } | undefined)?.crawler;
    if (n.available === false || !advert || !(advert.capacity > 0)) continue;
    nodes.push({ id: n.id, ...advert });
  }
  return nodes;
}

export const pairKey = (platform: string, channel: Channel): string => `${platform}:${channel}`;

/** Whether the node runs the platform over the channel. */
export function runsPair(node: CrawlerAdvert, platform: string, channel: Channel): boolean {
  if (!node.platforms.includes(platform) || !node.channels.includes(channel)) return false;
  return node.pairs === undefined || node.pairs.includes(pairKey(platform, channel));
}

/**
 * The platforms live crawler nodes can run on each platform's active channel
 * (a vendor platform is advertised only by nodes holding its credentials);
 * undefined while no crawler node is up, when availability is unknown.
 */
export function offeredPlatforms(
  nodes: readonly CrawlerNode[],
  channelOf: (platform: string) => Channel,
): Set<string> | undefined {
  if (nodes.length === 0) return undefined;
  const offered = new Set<string>();
  for (const n of nodes) {
    for (const p of n.platforms) if (runsPair(n, p, channelOf(p))) offered.add(p);
  }
  return offered;
}

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
