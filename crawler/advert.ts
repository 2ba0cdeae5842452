/** What a crawler node advertises in its Moleculer node metadata. */
import type { Config } from '../services/shared/config.js';
import type { CrawlerAdvert } from '../services/scheduler/nodes.js';
import { availablePlatforms } from './platforms/index.js';

export function crawlerAdvert(config: Config): CrawlerAdvert {
  return {
    capacity: config.crawler.capacity,
    prefetch: config.crawler.prefetch,
    regions: [...config.crawler.regions],
    channels: [...config.crawler.channels],
    platforms: availablePlatforms(),
  };
}
