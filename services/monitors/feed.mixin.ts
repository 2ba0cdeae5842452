/**
 * The `monitors` service's trends and change feed (a mixin of
 * monitors.service.ts): `monitors.trends` and `monitors.changes`, and the
 * detection of a finished run's changes (`detectChanges`, called when a run
 * finishes and by the leader's sweep for runs a stopped node left undetected).
 * Trends are computed on request from the finished runs' pre-pooled entries
 * (trends/pooled.ts), read with the index { monitorId, slot } and only the
 * entries of the requested groupBy.
 */
import type { Context, ServiceSchema } from 'moleculer';
import type { Config } from '../shared/config.js';
import type { Clock } from '../shared/clock.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import {
  checkChangesQuery,
  checkMonitorId,
  checkTrendsQuery,
} from '../shared/requests/monitor-queries.js';
import { DEFINITIONS_VERSION } from '../shared/contracts/monitor-trends.js';
import { monitorModels } from './models.js';
import { MonitorStore } from './store.js';
import { ChangeStore } from './changes/store.js';
import { ChangeFeed, type Delivery } from './changes/feed.js';
import { buildTrends } from './trends/series.js';
import { watchedKeys } from './watch.js';

/** Finished runs per sweep whose changes were never detected. */
const UNDETECTED_BATCH = 20;

interface FeedParams {
  userId: number;
  monitorId: unknown;
  query?: Record<string, unknown>;
}

const params = {
  userId: 'number',
  monitorId: 'any',
  query: { type: 'object', optional: true },
} as const;

export function monitorFeedMixin(config: Config, clock: Clock): Partial<ServiceSchema> {
  let monitors: MonitorStore;
  let changes: ChangeStore;
  let feed: ChangeFeed;

  return {
    actions: {
      trends: {
        params,
        async handler(ctx: Context<FeedParams>) {
          const id = checkMonitorId(ctx.params.monitorId);
          const query = checkTrendsQuery(ctx.params.query ?? {});
          const monitor = await monitors.get(ctx.params.userId, id);
          const [runs, insights] = await Promise.all([
            changes.trendRuns(id, query, query.groupBy),
            changes.latestInsights(id, query),
          ]);
          return {
            ...buildTrends(runs, query.groupBy, query, watchedKeys(monitor.keywords)),
            insights,
          };
        },
      },

      changes: {
        params,
        async handler(ctx: Context<FeedParams>) {
          const id = checkMonitorId(ctx.params.monitorId);
          const query = checkChangesQuery(ctx.params.query ?? {});
          await monitors.get(ctx.params.userId, id);
          return {
            definitionsVersion: DEFINITIONS_VERSION,
            changes: await changes.list(id, query),
          };
        },
      },
    },

    methods: {
      /** A finished run's changes, once; a failure is logged (the sweep does not retry it). */
      async detectChanges(run: { _id: string; monitorId: string; userId: number }) {
        try {
          const monitor = await monitors.get(run.userId, run.monitorId);
          await feed.detect(monitor, run._id, clock.now());
        } catch (err) {
          this.logger.warn(`monitor run ${run._id}: change detection failed:`, err);
        }
      },

      async sweepUndetected() {
        for (const run of await changes.undetected(UNDETECTED_BATCH)) {
          await this.detectChanges(run);
        }
      },
    },

    async started() {
      const connection = await acquireConnection(config.mongoUrl, config.mongoDb);
      const models = monitorModels(connection);
      monitors = new MonitorStore(models);
      changes = new ChangeStore(models);
      feed = new ChangeFeed({
        store: changes,
        deliver: (delivery: Delivery) => this.broker.call('callbacks.deliver', delivery),
        warn: (message, err) => this.logger.warn(message, err),
      });
    },

    async stopped() {
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}
