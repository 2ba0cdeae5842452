/**
 * The `api` service: Koa lifecycle only. The app is built in created(),
 * listens in started() and closes in stopped(); routes live in app.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, ServiceSchema } from 'moleculer';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { TokenVerifier, type VerificationMaterial } from '../shared/tokens.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import { STOP_SETTLE_MS, settleWithin } from '../shared/stop-order.js';
import { ScreenshotStore } from '../shared/screenshots.js';
import { EvidenceStore } from '../shared/evidence.js';
import { EvidenceKeys } from '../shared/evidence-keys.js';
import type {
  SubTasksLeased,
  SubTasksSettled,
  TaskCreated,
  TaskFinished,
} from '../shared/contracts/events.js';
import { ProgressHub } from './progress/progress-hub.js';
import type { TaskStatusView } from '../shared/contracts/task-progress.js';
import { serialisedOk } from './envelope.js';
import { readiness } from './readiness.js';
import { nodeStates } from '../shared/crawler-states.js';
import type { Connection } from 'mongoose';
import { createApp } from './app.js';
import type { Backend } from './backend.js';
import { StatusCache } from './status-cache.js';
import { currentRequestId } from './request-scope.js';
import { clusterFigures, FiguresSource } from './metrics/figures-source.js';
import { businessRegistry } from './metrics/registry.js';

/**
 * How long a status answer is served without a new read. Events drop it at
 * once on a settle, a finish or a new task; this bounds the changes no event
 * announces (a lease taken shows as `processing`, mended counters, a purge).
 */
const STATUS_MAX_AGE_MS = 250;
/** About 1,300 status answers of a 100-sub-task task. */
const STATUS_CACHE_BYTES = 32 * 1024 * 1024;

export function apiService(config: Config, clock: Clock = systemClock): ServiceSchema {
  let server: Server | undefined;
  /** Resolves once the server closed (set when it stops listening). */
  let closing: Promise<void> | undefined;
  let screenshots: ScreenshotStore | undefined;
  let evidence: EvidenceStore | undefined;
  let evidenceKeys: EvidenceKeys | undefined;
  let progress: ProgressHub | undefined;
  let connection: Connection | undefined;
  const statusCache = new StatusCache({
    maxAgeMs: STATUS_MAX_AGE_MS,
    maxBytes: STATUS_CACHE_BYTES,
    clock,
  });
  return {
    name: 'api',
    settings: { port: config.port, host: config.host },

    // Leases, settles and new tasks are broadcast, so every api node hears them; a finish is
    // emitted to one api node, and the others see it within STATUS_MAX_AGE_MS (the last
    // settle of a task is broadcast too, and the events streams also read on a timer).
    events: {
      'subtasks.leased'(ctx: Context<SubTasksLeased>) {
        this.changed(ctx.params.leased.map((s) => s.taskId));
      },
      'subtasks.settled'(ctx: Context<SubTasksSettled>) {
        this.changed(ctx.params.settled.map((s) => s.taskId));
      },
      'task.created'(ctx: Context<TaskCreated>) {
        statusCache.invalidate([ctx.params.taskId]);
      },
      'task.finished'(ctx: Context<TaskFinished>) {
        this.changed([ctx.params.taskId]);
      },
    },

    methods: {
      /**
       * Stop order, step 1 (services/shared/stop-order.ts): no new connection, the
       * events streams end and idle keep-alive connections close; requests under way
       * finish in `stopped`.
       */
      quiesce() {
        progress?.close();
        if (!server?.listening) return;
        closing = new Promise<void>((resolve) => server!.close(() => resolve()));
        server.closeIdleConnections();
      },
      changed(taskIds: string[]) {
        statusCache.invalidate(taskIds);
        progress?.changed(taskIds);
      },
    },

    created() {
      let verifier: Promise<TokenVerifier> | undefined;
      const loadVerifier = (): Promise<TokenVerifier> => {
        verifier ??= (
          config.jwtSecret
            ? TokenVerifier.from({ alg: 'HS256', key: config.jwtSecret })
            : this.broker
                .call<VerificationMaterial>('users.verificationKey')
                .then((m) => TokenVerifier.from(m))
        ).catch((err: unknown) => {
          verifier = undefined; // try again on the next request
          throw err;
        });
        return verifier;
      };
      const backend: Backend = {
        call: (action, params) =>
          this.broker.call(action, params, { requestID: currentRequestId() }),
      };
      // Streams read through the status cache: one read per change, shared with the polls.
      progress = new ProgressHub({
        read: async (taskId, userId) => {
          const params = { userId, taskId };
          const body = await statusCache.get(taskId.toLowerCase(), userId, async () =>
            serialisedOk(await backend.call('tasks.status', params)),
          );
          return (JSON.parse(body.toString('utf8')) as { data: TaskStatusView }).data;
        },
        ...config.events,
        warn: (message, err) => this.logger.warn(message, err),
      });
      const crawlerStates = () => nodeStates(this.broker);
      const figures = new FiguresSource(
        clusterFigures(backend, crawlerStates, this.logger),
        config.metrics.cacheMs,
        clock,
      );
      const app = createApp({
        config,
        metrics: businessRegistry(figures),
        clock,
        logger: this.logger,
        backend,
        progress,
        crawlerStates,
        ready: () =>
          readiness({
            pingMongo: async () => {
              if (!connection?.db) throw new Error('not connected');
              await connection.db.admin().ping();
            },
            transporterConnected: () =>
              config.transporter ? this.broker.transit?.connected === true : undefined,
            availableServices: () =>
              new Set(
                this.broker.registry
                  .getServiceList({ onlyAvailable: true })
                  .map((s: { name: string }) => s.name),
              ),
            // With a local JWT secret tokens are checked here; else the users service's key.
            needed: config.jwtSecret ? ['tasks'] : ['tasks', 'users'],
            timeoutMs: Math.min(2000, config.requestTimeoutMs),
          }),
        verifier: loadVerifier,
        statusCache,
        screenshot: async (id) => screenshots?.load(id),
        evidence: {
          latestOf: async (subTaskId) => evidence?.latestOf(subTaskId),
          withEvidence: async (ids) => evidence?.withEvidence(ids) ?? new Set(),
        },
        evidenceKeys: {
          signingKey: () => afterStart(evidenceKeys).active(clock.now()),
          publicSet: () => afterStart(evidenceKeys).publicSet(),
        },
      });
      server = createServer(app.callback());
      server.requestTimeout = config.requestTimeoutMs * 3;
      server.headersTimeout = config.requestTimeoutMs;
      // Idle keep-alive connections stay open longer than the clients and proxies in front
      // keep them (undici 4 s, nginx and cloud load balancers 60 s): with Node's 5 s default the
      // server could close a socket just as a client reused it, and the request failed with
      // ECONNRESET (the schema fuzz test saw it on a loaded machine).
      server.keepAliveTimeout = 65_000;
    },

    async started() {
      connection = await acquireConnection(config.mongoUrl, config.mongoDb);
      screenshots = new ScreenshotStore(connection);
      evidence = new EvidenceStore(connection);
      evidenceKeys = new EvidenceKeys(connection);
      const s = server!;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(config.port, config.host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      const { port } = s.address() as AddressInfo;
      this.settings.port = port;
      this.logger.info(`api listening on http://${config.host}:${port}`);
    },

    async stopped() {
      this.quiesce();
      // Requests under way get their answer, within the bound; then what is left is cut.
      if (closing) await settleWithin(STOP_SETTLE_MS, closing);
      server?.closeAllConnections();
      closing = undefined;
      if (screenshots) await releaseConnection(config.mongoUrl, config.mongoDb);
      screenshots = undefined;
      evidence = undefined;
      evidenceKeys = undefined;
      connection = undefined;
    },
  };
}

/** A part the service makes in started(): a request before then is an error, not a silent undefined. */
function afterStart<T>(part: T | undefined): T {
  if (!part) throw new Error('api service is not started');
  return part;
}
