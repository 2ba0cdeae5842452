/** What a crawler node advertises in its Moleculer node metadata. */
import type { Config } from '../services/shared/config.js';
import { pairKey, type CrawlerAdvert } from '../services/shared/contracts/advert.js';
import { availablePlatforms, driverFor, vendorPlatforms } from './platforms/index.js';
import { credentialedPlatforms } from './settings.js';
import { resolvePorts } from './proxy-ports.js';
import { proxyKey } from '../services/shared/proxy-config.js';

/**
 * The simulated platforms always, a vendor platform only when this node has
 * its API key; the (platform, channel) pairs among them that it has a driver
 * for; the regions of its proxy ports and the ports (never their credentials).
 */
export function crawlerAdvert(config: Config): CrawlerAdvert {
  const vendors = new Set(vendorPlatforms());
  const credentialed = new Set(credentialedPlatforms(config.platforms));
  const ports = resolvePorts(config.crawler.proxies);
  const channels = [...config.crawler.channels];
  const platforms = availablePlatforms().filter((p) => !vendors.has(p) || credentialed.has(p));
  return {
    capacity: config.crawler.capacity,
    prefetch: config.crawler.prefetch,
    regions: [...new Set(ports.flatMap((p) => p.regionCode))].sort(),
    proxyPorts: ports.map(({ url, ...info }) => ({ key: proxyKey(url), ...info })),
    channels,
    platforms,
    pairs: platforms.flatMap((p) =>
      channels.filter((c) => driverFor(p)?.[c] !== undefined).map((c) => pairKey(p, c)),
    ),
  };
}
