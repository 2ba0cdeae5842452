/** What a crawler node advertises in its Moleculer node metadata. */
import type { Config } from '../services/shared/config.js';
import type { CrawlerAdvert } from '../services/scheduler/nodes.js';
import { availablePlatforms, vendorPlatforms } from './platforms/index.js';
import { credentialedPlatforms } from './settings.js';

/** The simulated platforms always, a vendor platform only when this node has its API key. */
export function crawlerAdvert(config: Config): CrawlerAdvert {
  const vendors = new Set(vendorPlatforms());
  const credentialed = new Set(credentialedPlatforms(config.platforms));
  return {
    capacity: config.crawler.capacity,
    prefetch: config.crawler.prefetch,
    regions: [...config.crawler.regions],
    channels: [...config.crawler.channels],
    platforms: availablePlatforms().filter((p) => !vendors.has(p) || credentialed.has(p)),
  };
}
