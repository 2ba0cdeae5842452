/**
 * What a crawler node advertises in its Moleculer node metadata, and how
 * every service reads it (the scheduler to place work, the api to tell which
 * platforms run, the proxies service to find crawler nodes).
 */
import type { Channel } from '../platforms.js';
import type { ProxyPortInfo } from '../proxy-ports.js';

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
