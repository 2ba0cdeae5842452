/**
 * The `crawler` service of a crawler node: accepts leases from the active
 * scheduler (up to the capacity it advertises in its node metadata), runs them
 * through the Executor, renews leases and reports outcomes to `tasks`.
 * Without SANDBOX_URL it runs its own local sandbox stand-in, so the simulated
 * platforms work offline.
 */
import type { Context, ServiceSchema } from 'moleculer';
import { log as crawleeLog, LogLevel } from '@crawlee/core';
import type { Config } from '../services/shared/config.js';
import { systemClock, type Clock } from '../services/shared/clock.js';
import { acquireConnection, releaseConnection } from '../services/shared/mongo.js';
import type { LeaseMessage } from '../services/scheduler/dispatcher.js';
import { ScreenshotStore, screenshotPath } from '../services/tasks/screenshots.js';
import { BrowserRunner } from './browser.js';
import { Executor } from './executor.js';
import { driverFor } from './platforms/index.js';
import { startSandboxServer, type SandboxServer } from './platforms/sandbox/server.js';
import { RenderServer } from './render-server.js';
import { settingsResolver } from './settings.js';

const MAX_WORK_SECONDS = 300;

export function crawlerService(config: Config, clock: Clock = systemClock): ServiceSchema {
  let executor: Executor;
  let browser: BrowserRunner;
  let render: RenderServer;
  let sandbox: SandboxServer | undefined;

  return {
    name: 'crawler',

    actions: {
      accept: {
        params: {
          subTaskId: 'string',
          token: 'string',
          platform: 'string',
          channel: 'string',
          leaseMs: 'number',
        },
        handler(ctx: Context<LeaseMessage>) {
          return executor.accept(ctx.params);
        },
      },
      status: {
        handler() {
          return {
            node: this.broker.nodeID,
            running: executor.running,
            queued: executor.queued,
            capacity: config.crawler.capacity,
            prefetch: config.crawler.prefetch,
          };
        },
      },
    },

    async started() {
      // Crawlee's own info logs are per request; our executor reports what matters.
      crawleeLog.setLevel(
        ['debug', 'trace'].includes(config.logLevel) ? LogLevel.DEBUG : LogLevel.OFF,
      );
      const connection = await acquireConnection(config.mongoUrl, config.mongoDb);
      const screenshots = new ScreenshotStore(connection);
      await screenshots.ensureIndexes();
      if (!config.sandbox.url) {
        sandbox = await startSandboxServer({
          latencyMs: config.sandbox.latencyMs,
          failureRate: config.sandbox.failureRate,
        });
      }
      const sandboxUrl = config.sandbox.url ?? sandbox!.url;
      render = new RenderServer();
      await render.start();
      browser = new BrowserRunner({
        chromiumPath: config.crawler.chromiumPath,
        concurrency: config.crawler.capacity,
        maxWorkSeconds: MAX_WORK_SECONDS,
      });
      executor = new Executor({
        capacity: config.crawler.capacity,
        prefetch: config.crawler.prefetch,
        driverFor,
        settingsFor: settingsResolver(
          { url: sandboxUrl, timeoutMs: config.sandbox.timeoutMs },
          config.platforms,
        ),
        browser,
        render,
        saveScreenshot: async (png, subTaskId) =>
          screenshotPath(await screenshots.save(png, subTaskId, clock.now())),
        renew: async (lease) =>
          (
            await this.broker.call<{ held: boolean }, object>('tasks.renew', {
              subTaskId: lease.subTaskId,
              token: lease.token,
            })
          ).held,
        report: async (lease, outcome) => {
          await this.broker.call('tasks.settle', {
            subTaskId: lease.subTaskId,
            token: lease.token,
            ...outcome,
          });
        },
        release: async (lease) => {
          await this.broker.call('tasks.release', {
            subTaskId: lease.subTaskId,
            token: lease.token,
          });
        },
        log: this.logger,
      });
    },

    async stopped() {
      await executor?.stop();
      await browser?.stop();
      await render?.stop();
      await sandbox?.close();
      sandbox = undefined;
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}
