/**
 * The `proxies` service (eip-edge): the cluster-wide registry of proxy ports
 * and the city lookup. Crawler nodes push their health reports; this service
 * also pulls them on start, when a crawler node connects and periodically, so
 * a missed event or a restart of this service heals. Logic lives in registry.ts.
 */
import type { Context, ServiceSchema } from 'moleculer';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { crawlerNodes } from '../shared/contracts/advert.js';
import { ProxyRegistry } from './registry.js';
import { asReport } from './report.js';

type NodeEvent = { node: { id: string; metadata?: unknown } };

export function proxiesService(config: Config, clock: Clock = systemClock): ServiceSchema {
  const registry = new ProxyRegistry(clock, config.proxies.forgetMs);
  let timer: NodeJS.Timeout | undefined;
  let resyncing = false;
  return {
    name: 'proxies',

    actions: {
      /** Spec 4.6: CityInfoRecord[] ordered by regionCode, then port. */
      cityInfo: {
        params: { deduplicate: { type: 'boolean', optional: true } },
        handler(ctx: Context<{ deduplicate?: boolean }>) {
          return registry.cityInfo(ctx.params.deduplicate === true);
        },
      },

      /** `{code: {ports, active}}` for every code a known port lists. */
      regions: {
        handler() {
          return registry.regions();
        },
      },
    },

    events: {
      'proxies.health'(ctx: Context<unknown>) {
        const report = asReport(ctx.params);
        if (!report) {
          this.logger.warn(`malformed proxies.health report from ${ctx.nodeID} ignored`);
          return;
        }
        registry.report(ctx.nodeID ?? report.node, report);
      },
      '$node.connected'(ctx: Context<NodeEvent>) {
        const node = ctx.params.node;
        if (crawlerNodes([node]).length > 0) void this.pull(node.id);
      },
      '$node.disconnected'(ctx: Context<NodeEvent>) {
        registry.gone(ctx.params.node.id);
      },
    },

    methods: {
      /** Asks one crawler node for its ports; a failed call keeps what is known. */
      async pull(nodeID: string) {
        // A node still starting (or this very node, before its crawler service) has nothing to say yet.
        if (!(this.broker.registry.services.has('crawler', nodeID) as boolean)) return;
        const version = registry.version(nodeID);
        try {
          const report = asReport(await this.broker.call('crawler.ports', {}, { nodeID }));
          if (report) registry.report(nodeID, report, version);
          else this.logger.warn(`malformed crawler.ports answer from ${nodeID} ignored`);
        } catch (err) {
          this.logger.debug(`crawler.ports of ${nodeID} failed: ${String(err)}`);
        }
      },

      async resync() {
        if (resyncing) return;
        resyncing = true;
        try {
          const live = crawlerNodes(
            this.broker.registry.nodes.list({ onlyAvailable: true, withServices: false }),
          ).map((n) => n.id);
          registry.retain(live);
          await Promise.all(live.map((id) => this.pull(id)));
        } finally {
          resyncing = false;
        }
      },
    },

    started() {
      // Not awaited: a slow crawler node must not hold up this node's start.
      void this.resync();
      timer ??= setInterval(() => void this.resync(), config.proxies.resyncMs);
    },

    stopped() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
