/**
 * The `crawler` service of a crawler node: accepts leases from the active
 * scheduler (up to the capacity it advertises in its node metadata), runs them
 * through the Executor, renews leases and reports outcomes to `tasks`. Web
 * leases check their account out of `accounts` and release it there; their
 * raw evidence is stored next to the screenshots. On a
 * graceful stop it drains (see `drain`) before the broker stops.
 * Without SANDBOX_URL it runs its own local sandbox stand-in, so the simulated
 * platforms work offline. It checks its own proxy ports and broadcasts their
 * health (`proxies.health`) after every round that changed something, and
 * every few rounds anyway, so late listeners catch up.
 */
import type { Context, ServiceSchema } from 'moleculer';
import { log as crawleeLog, LogLevel } from '@crawlee/core';
import type { Config } from '../services/shared/config.js';
import { systemClock, type Clock } from '../services/shared/clock.js';
import { acquireConnection, releaseConnection } from '../services/shared/mongo.js';
import type {
  AcceptAnswer,
  AcceptRequest,
  RenewAnswer,
  RenewRequest,
} from '../services/shared/contracts/lease.js';
import { ScreenshotStore, screenshotPath } from '../services/shared/screenshots.js';
import { EvidenceStore } from '../services/shared/evidence.js';
import type {
  CheckedOutAccount,
  CheckoutRequest,
  ReleaseRequest,
} from '../services/shared/contracts/accounts.js';
import { BrowserRunner } from './browser.js';
import { KeptPages } from './web/kept-pages.js';
import { judgeAttempt, type JudgeAttemptDeps } from './judge-attempt.js';
import type { JudgeAnswer, JudgeRequest } from '../services/shared/contracts/judge.js';
import { Executor } from './executor.js';
import { driverFor } from './platforms/index.js';
import { startSandboxServer, type SandboxServer } from '../sandbox/server.js';
import { RenderServer } from './render-server.js';
import { ReportBatch } from './report-batch.js';
import { reportSender } from './report-sender.js';
import type { SettleReport } from '../services/shared/contracts/report.js';
import type { CrawlerAdvert } from '../services/shared/contracts/advert.js';
import { settingsResolver } from './settings.js';
import { ProxyPool, type ChosenPort } from './proxy-pool.js';
import { portCheck, proxiedFetch } from './proxy-check.js';
import { resolvePorts } from './proxy-ports.js';
import { ProxyAgent } from 'undici';
import type { ProxyHealthReport } from '../services/shared/proxy-ports.js';

const MAX_WORK_SECONDS = 300;
/**
 * How long an outcome waits for others to share its report call (see
 * ReportBatch). Answers take seconds, so 30 ms is noise to a result's `time`;
 * in the pipeline benchmark 30 ms batches cut the api's and the scheduler's
 * CPU by about a fifth against 10 ms ones, and 50 ms was no better.
 */
const REPORT_GATHER_MS = 30;
const REPORT_BATCH_MAX = 100;
/** Rounds of checks between two reports of unchanged health. */
const REPORT_UNCHANGED_EVERY = 3;

export function crawlerService(config: Config, clock: Clock = systemClock): ServiceSchema {
  let executor: Executor;
  let browser: BrowserRunner;
  let render: RenderServer;
  let sandbox: SandboxServer | undefined;
  let proxies: ProxyPool;
  let checkTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let judgeDeps: JudgeAttemptDeps;
  const keptPages = new KeptPages({
    max: config.crawler.keptPages,
    idleMs: config.crawler.keptPageIdleMs,
  });
  const agents = new Map<string, ProxyAgent>();

  return {
    name: 'crawler',

    actions: {
      /** The leases of one dispatch pass; each is taken or refused on its own. */
      accept: {
        params: {
          leases: {
            type: 'array',
            items: {
              type: 'object',
              props: {
                subTaskId: 'string',
                token: 'string',
                platform: 'string',
                channel: 'string',
                leaseMs: 'number',
              },
            },
          },
        },
        handler(ctx: Context<AcceptRequest>): AcceptAnswer {
          return { results: ctx.params.leases.map((lease) => executor.accept(lease)) };
        },
      },
      /** One sentiment-judge request (services/tasks/judge.ts), answered or failed, never thrown. */
      judge: {
        params: {
          platform: 'string',
          model: { type: 'string', optional: true },
          prompt: 'string',
          regionCode: { type: 'string', optional: true, nullable: true },
        },
        handler(ctx: Context<JudgeRequest>): Promise<JudgeAnswer> {
          return judgeAttempt(judgeDeps, {
            ...ctx.params,
            regionCode: ctx.params.regionCode ?? null,
          });
        },
      },
      /** The health of this node's proxy ports (the proxies service asks after a restart). */
      ports: {
        handler(): ProxyHealthReport {
          return { node: this.broker.nodeID, ports: proxies.health() };
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
            draining: executor.draining,
          };
        },
      },
    },

    methods: {
      /**
       * Stop order, step 1 (services/shared/stop-order.ts): no more leases, no
       * more port checks; the leases held are handed back in `stopped`.
       */
      quiesce() {
        clearInterval(checkTimer);
        clearInterval(sweepTimer);
        executor?.refuseNew();
      },
      /**
       * A graceful stop (bin/lifecycle.ts calls it before stopping the broker,
       * so reports and hand-backs still travel): the node tells the cluster it
       * is draining, so the scheduler places nothing more here, then lets its
       * work finish within DRAIN_MS (see Executor.drain). `now` (a second
       * signal) hands back what is left at once.
       */
      async drain(now: AbortSignal) {
        if (!executor) return;
        await this.advertiseDraining();
        await executor.drain(config.crawler.drainMs, now);
      },
      /**
       * Re-sends this node's INFO with `draining` in its advert; the scheduler
       * reads adverts every pass, and one that starts later sees it too.
       * Moleculer 0.14 has no public call for changed metadata: these two are
       * what its own broker.stop() uses to announce a changed node.
       */
      async advertiseDraining() {
        const metadata = this.broker.metadata as { crawler?: CrawlerAdvert };
        if (!metadata.crawler) return;
        metadata.crawler = { ...metadata.crawler, draining: true };
        const registry = this.broker.registry as unknown as {
          regenerateLocalRawInfo(incSeq: boolean): void;
          discoverer: { sendLocalNodeInfo(): Promise<void> };
        };
        registry.regenerateLocalRawInfo(true);
        await registry.discoverer
          .sendLocalNodeInfo()
          .catch((err: unknown) => this.logger.warn('announcing the drain failed:', err));
      },
      /** One round of port checks; reports when something changed (or when asked to anyway). */
      async checkPorts(reportAnyway: boolean) {
        if (proxies.size === 0) return;
        const changed = await proxies.checkAll();
        if (changed || reportAnyway) await this.reportPorts();
      },
      async reportPorts() {
        await this.broker
          .broadcast('proxies.health', {
            node: this.broker.nodeID,
            ports: proxies.health(),
          } satisfies ProxyHealthReport)
          .catch((err: unknown) => this.logger.warn('reporting proxy health failed:', err));
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
      const evidence = new EvidenceStore(connection);
      await evidence.ensureIndexes();
      if (!config.sandbox.url) {
        sandbox = await startSandboxServer({
          latencyMs: config.sandbox.latencyMs,
          failureRate: config.sandbox.failureRate,
        });
      }
      const sandboxUrl = config.sandbox.url ?? sandbox!.url;
      proxies = new ProxyPool(
        resolvePorts(config.crawler.proxies),
        portCheck(config.crawler.proxyCheckUrl),
        clock,
      );
      await this.checkPorts(true);
      let rounds = 0;
      checkTimer = setInterval(
        () => void this.checkPorts(++rounds % REPORT_UNCHANGED_EVERY === 0),
        config.crawler.proxyCheckMs,
      );
      render = new RenderServer();
      await render.start();
      const reports = new ReportBatch<SettleReport>(
        reportSender(this.broker),
        REPORT_GATHER_MS,
        REPORT_BATCH_MAX,
      );
      // An idle account page closes on time even when no sub task comes to sweep it.
      sweepTimer = setInterval(
        () => void keptPages.sweep(),
        Math.max(1_000, config.crawler.keptPageIdleMs / 4),
      );
      sweepTimer.unref();
      browser = new BrowserRunner({
        chromiumPath: config.crawler.chromiumPath,
        concurrency: config.crawler.capacity,
        maxWorkSeconds: MAX_WORK_SECONDS,
      });
      // What an attempt needs to reach a platform: the executor's and the judge's alike.
      judgeDeps = {
        driverFor,
        settingsFor: settingsResolver(
          { url: sandboxUrl, timeoutMs: config.sandbox.timeoutMs },
          config.platforms,
        ),
        proxies,
        fetchVia: (port: ChosenPort | null) => {
          if (!port) return fetch;
          let agent = agents.get(port.key);
          if (!agent) agents.set(port.key, (agent = new ProxyAgent(port.url)));
          return proxiedFetch(agent);
        },
        portFailed: (key) => {
          void proxies
            .recheck(key)
            .then((changed) => changed && this.reportPorts())
            .catch(() => undefined);
        },
      };
      executor = new Executor({
        capacity: config.crawler.capacity,
        prefetch: config.crawler.prefetch,
        ...judgeDeps,
        proxies,
        browser,
        keptPages,
        render,
        saveScreenshot: async (png, subTaskId) =>
          screenshotPath(await screenshots.save(png, subTaskId, clock.now())),
        accounts: {
          checkout: (request) =>
            this.broker.call<CheckedOutAccount, CheckoutRequest>('accounts.checkout', request),
          release: async (request) => {
            await this.broker.call<unknown, ReleaseRequest>('accounts.release', request);
          },
        },
        saveEvidence: (ndjson, subTaskId) => evidence.save(ndjson, subTaskId, clock.now()),
        renew: async (leases) =>
          (
            await this.broker.call<RenewAnswer, RenewRequest>('tasks.renewBatch', {
              leases: leases.map((l) => ({ subTaskId: l.subTaskId, token: l.token })),
            })
          ).held,
        report: (lease, outcome) =>
          reports.add({
            subTaskId: lease.subTaskId,
            taskId: lease.taskId,
            token: lease.token,
            attempt: lease.attempt,
            ...outcome,
          }),
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
      clearInterval(checkTimer);
      clearInterval(sweepTimer);
      await executor?.stop();
      await Promise.all([...agents.values()].map((a) => a.close().catch(() => undefined)));
      agents.clear();
      await keptPages.closeAll();
      await browser?.stop();
      await render?.stop();
      await sandbox?.close();
      sandbox = undefined;
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}
