/** What a crawler node advertises in its Moleculer node metadata. */
import type { Config } from '../services/shared/config.js';
import { pairKey, type CrawlerAdvert } from '../services/shared/contracts/advert.js';
import { PLATFORMS, type Channel } from '../services/shared/platforms.js';
import { driverFor } from './platforms/index.js';
import { credentialedPlatforms } from './settings.js';
import { resolvePorts } from './proxy-ports.js';
import { proxyKey } from '../services/shared/proxy-config.js';

/**
 * The (platform, channel) pairs this node runs: the channels it runs
 * (CRAWLER_CHANNELS) that the platform's definition lists and this build has
 * a driver for; a vendor's API channel only with its API key. Web pairs need
 * no key: the scheduler places their work only where an account can go.
 */
export function runnablePairs(config: Config): { platform: string; channel: Channel }[] {
  const credentialed = new Set(credentialedPlatforms(config.platforms));
  return PLATFORMS.flatMap((def) =>
    config.crawler.channels
      .filter((channel) => driverFor(def.name, channel) !== undefined)
      .filter((channel) => channel === 'web' || def.simulated || credentialed.has(def.name))
      .map((channel) => ({ platform: def.name, channel })),
  );
}

/**
 * The platforms and pairs this node runs, the regions of its proxy ports and
 * the ports (never their credentials).
 */
export function crawlerAdvert(config: Config): CrawlerAdvert {
  const ports = resolvePorts(config.crawler.proxies);
  const pairs = runnablePairs(config);
  return {
    capacity: config.crawler.capacity,
    prefetch: config.crawler.prefetch,
    regions: [...new Set(ports.flatMap((p) => p.regionCode))].sort(),
    proxyPorts: ports.map(({ url, ...info }) => ({ key: proxyKey(url), ...info })),
    channels: [...config.crawler.channels],
    platforms: [...new Set(pairs.map((p) => p.platform))],
    pairs: pairs.map((p) => pairKey(p.platform, p.channel)),
  };
}
