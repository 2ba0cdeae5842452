/**
 * The `monitors` service: recurring runs of a prompt set. It owns `monitors`
 * and `monitorRuns`; a run is ordinary tasks submitted through `tasks.submit`,
 * so the scheduler gains no timer. Any number of instances may run: one holds
 * the leader lock `locks/monitors` and starts due runs, every instance serves
 * the CRUD actions and snapshots finished tasks (task.finished is balanced).
 */
import type { Context, ServiceSchema } from 'moleculer';
import type { Connection } from 'mongoose';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newTaskId } from '../shared/ids.js';
import { LeaderLock } from '../shared/leader.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import { refusedCallbackField } from '../shared/webhooks/address.js';
import { AddressPolicy } from '../shared/webhooks/ssrf.js';
import { checkMonitorInput, type MonitorInput } from '../shared/requests/monitor.js';
import { checkPageQuery } from '../shared/requests/task-queries.js';
import { checkMonitorId } from '../shared/requests/monitor-queries.js';
import type { ExportPage } from '../shared/contracts/export.js';
import type { TaskBrief } from '../shared/contracts/callbacks.js';
import type { TaskFinished } from '../shared/contracts/events.js';
import { monitorModels, type MonitorDoc, type RunDoc } from './models.js';
import { isSettled, MonitorStore } from './store.js';
import { RunStarter, type SubmitCall } from './runs.js';
import { dueAt, nextDue, scheduleProblems } from './schedule.js';
import type { ResultItem } from './snapshot.js';
import { RegionSettler, type TaskRead } from './settle.js';
import { monitorView, runView } from './view.js';
import { Digests } from './digest/digests.js';
import { monitorFeedMixin } from './feed.mixin.js';
import { watch } from './watch.js';
import { runTaskIds } from './insights.js';
import { checkWatchInput } from '../shared/requests/monitor-watch.js';
import type { WatchResult } from '../shared/contracts/monitors.js';
import type { RunInsightsDoc } from './models.js';

/** How often the leader looks for due monitors and stalled starts. */
const TICK_MS = 1_000;
/** Monitors started per tick at most; the rest are due on the next tick. */
const DUE_BATCH = 100;
/** A start's claim: one node submits a run's tasks; another resumes it after this. */
const START_CLAIM_MS = 60_000;
/** Running runs checked per tick for a task.finished that was missed. */
const SWEEP_BATCH = 20;
const PAGE = 1_000;
/** Reads and writes of one watch that other edits may overtake before it gives up (503). */
const WATCH_ATTEMPTS = 10;

interface UserParams {
  userId: number;
}
type MonitorParams = UserParams & { monitorId: unknown };

function isCronSchedule(s: unknown): s is { cron: string; timezone: string } {
  const { cron, timezone } = (s ?? {}) as Record<string, unknown>;
  return typeof cron === 'string' && typeof timezone === 'string';
}

export function monitorsService(config: Config, clock: Clock = systemClock): ServiceSchema {
  let connection: Connection;
  let store: MonitorStore;
  let lock: LeaderLock;
  let starter: RunStarter;
  let digests: Digests;
  let settler: RegionSettler;
  let leader = false;
  let stopping = false;
  let electionTimer: NodeJS.Timeout | undefined;
  let tickTimer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();
  // The election in flight: stopping awaits it, so its lock query never meets a closed client.
  let electing: Promise<void> = Promise.resolve();
  const callbackPolicy = new AddressPolicy(config.callbacks.allowCidrs);
  const ttl = config.scheduling.leaderTtlMs;

  return {
    name: 'monitors',
    mixins: [monitorFeedMixin(config, clock)],

    actions: {
      create: {
        params: { userId: 'number', body: { type: 'any', optional: true, nullable: true } },
        async handler(ctx: Context<UserParams & { body: unknown }>) {
          const input = await this.checked(ctx.params.body);
          const now = clock.now();
          const doc: MonitorDoc = {
            _id: newTaskId(),
            userId: ctx.params.userId,
            ...input,
            createdAt: now,
            updatedAt: now,
            nextDueAt: nextDue(input.schedule, now),
          };
          return monitorView(await store.create(doc));
        },
      },

      list: {
        params: { userId: 'number', query: { type: 'object', optional: true } },
        async handler(ctx: Context<UserParams & { query?: Record<string, unknown> }>) {
          const { page, size } = checkPageQuery(ctx.params.query ?? {});
          const { total, items } = await store.list(ctx.params.userId, page, size);
          return { total, page, size, monitors: items.map(monitorView) };
        },
      },

      get: {
        params: { userId: 'number', monitorId: 'any' },
        async handler(ctx: Context<MonitorParams>) {
          const id = checkMonitorId(ctx.params.monitorId);
          return monitorView(await store.get(ctx.params.userId, id));
        },
      },

      /** PUT: the whole monitor again; its next slot follows the new schedule. */
      update: {
        params: {
          userId: 'number',
          monitorId: 'any',
          body: { type: 'any', optional: true, nullable: true },
        },
        async handler(ctx: Context<MonitorParams & { body: unknown }>) {
          // The body first: a malformed request is a 400 whether or not the monitor exists.
          const id = checkMonitorId(ctx.params.monitorId);
          const input = await this.checked(ctx.params.body);
          await store.get(ctx.params.userId, id);
          const now = clock.now();
          return monitorView(
            await store.replace(ctx.params.userId, id, input, now, nextDue(input.schedule, now)),
          );
        },
      },

      remove: {
        params: { userId: 'number', monitorId: 'any' },
        async handler(ctx: Context<MonitorParams>) {
          const id = checkMonitorId(ctx.params.monitorId);
          await store.remove(ctx.params.userId, id);
          return { monitorId: id };
        },
      },

      /** Runs the monitor now, beside its schedule (a disabled monitor too). */
      runNow: {
        params: { userId: 'number', monitorId: 'any' },
        async handler(ctx: Context<MonitorParams>) {
          const id = checkMonitorId(ctx.params.monitorId);
          const monitor = await store.get(ctx.params.userId, id);
          const now = clock.now();
          const run = await starter.create(monitor, 'manual', now, now);
          return this.runView(await store.run(run!._id));
        },
      },

      /**
       * Adds a brand to the monitor's keyword groups (its name the group's one
       * alias); the next run measures it. Idempotent: a name the monitor
       * watches already (by its key) changes nothing and names its group.
       */
      watch: {
        params: {
          userId: 'number',
          monitorId: 'any',
          body: { type: 'any', optional: true, nullable: true },
        },
        async handler(ctx: Context<MonitorParams & { body: unknown }>): Promise<WatchResult> {
          // The body first: a malformed request is a 400 whether or not the monitor exists.
          const id = checkMonitorId(ctx.params.monitorId);
          const { name } = checkWatchInput(ctx.params.body);
          // Two watches at once: each writes only over the keywords it read, and the later one reads again.
          for (let attempt = 0; ; attempt++) {
            const monitor = await store.get(ctx.params.userId, id);
            const watching = watch(monitor.monitorKeywords, monitor.keywords, name);
            if (!watching.added) {
              return { added: false, keyword: watching.keyword, monitor: monitorView(monitor) };
            }
            const { monitorKeywords, keywords } = watching;
            const saved = await store.setKeywords(
              ctx.params.userId,
              id,
              monitor.monitorKeywords,
              { monitorKeywords, keywords },
              clock.now(),
            );
            if (saved)
              return { added: true, keyword: watching.keyword, monitor: monitorView(saved) };
            if (attempt + 1 >= WATCH_ATTEMPTS) {
              throw new AppError(
                'the monitor kept changing meanwhile: try again',
                503,
                'UNAVAILABLE',
              );
            }
          }
        },
      },

      runs: {
        params: {
          userId: 'number',
          monitorId: 'any',
          query: { type: 'object', optional: true },
        },
        async handler(ctx: Context<MonitorParams & { query?: Record<string, unknown> }>) {
          const id = checkMonitorId(ctx.params.monitorId);
          const { page, size } = checkPageQuery(ctx.params.query ?? {});
          // The owner check: another user's monitor is a 404.
          await store.get(ctx.params.userId, id);
          const { total, items } = await store.runs(id, page, size);
          return { total, page, size, runs: items.map((r) => this.runView(r)) };
        },
      },
    },

    events: {
      'task.finished': {
        async handler(ctx: Context<TaskFinished>) {
          const run = await store.runOfTask(ctx.params.taskId);
          if (!run) return;
          try {
            await settler.taskFinished(run, ctx.params.taskId, ctx.params.status);
          } catch (err) {
            // The leader's sweep snapshots it later.
            this.logger.warn(`monitor run ${run._id}: snapshot of ${ctx.params.taskId}:`, err);
          }
        },
      },
    },

    methods: {
      async checked(body: unknown): Promise<MonitorInput> {
        const checked = checkMonitorInput(body, config.scheduling.platformChannels);
        const problems = checked.ok ? [] : [...checked.errors];
        // croner reads the cron text and time zone whenever they are strings, beside the rest.
        const schedule = (body as { schedule?: unknown } | null)?.schedule;
        if (isCronSchedule(schedule)) problems.push(...scheduleProblems(schedule));
        const refused = await refusedCallbackField(body, callbackPolicy);
        if (refused) problems.push(refused);
        if (!checked.ok || problems.length > 0) throw AppError.invalid(problems);
        return checked.value;
      },

      runView(run: RunDoc) {
        return runView(run, run.body.prompts as string[]);
      },

      /** Reads a final task's sub tasks a page at a time. */
      async readTask(userId: number, taskId: string): Promise<TaskRead> {
        const items: ResultItem[] = [];
        let keywords: string[] = [];
        for (let afterSeq = -1; ;) {
          const page = await this.broker.call<ExportPage<ResultItem['result']>, object>(
            'tasks.exportPage',
            { userId, taskId, afterSeq, limit: PAGE },
          );
          keywords = page.keywords;
          items.push(...page.items);
          if (page.items.length < PAGE) break;
          afterSeq = page.items.at(-1)!.seq;
        }
        return { keywords, items };
      },

      /**
       * The insights of a run whose regions are all settled, over all its sub
       * tasks (every region and round) as a task's visibility computes them:
       * stored as it finishes, so that they outlive the tasks. A failure is
       * logged, and the run has none.
       */
      async insightsOf(run: RunDoc): Promise<RunInsightsDoc | null> {
        const taskIds = runTaskIds(run);
        if (taskIds.length === 0) return null;
        try {
          return await this.broker.call<RunInsightsDoc, object>('tasks.insights', {
            userId: run.userId,
            taskIds,
          });
        } catch (err) {
          this.logger.warn(`monitor run ${run._id}: insights not kept:`, err);
          return null;
        }
      },

      async tick() {
        const now = clock.now();
        await starter.resumeStalled(now);
        const starts = (await store.due(now, DUE_BATCH)).flatMap((monitor) => {
          const due = dueAt(monitor.schedule, monitor.nextDueAt, now);
          return due ? [{ monitor, due }] : [];
        });
        // The runs first: a node that dies before advancing leaves due monitors whose runs exist.
        await starter.createMany(
          starts.map(({ monitor, due }) => ({ monitor, trigger: 'schedule', slot: due.slot })),
          now,
        );
        await store.advance(
          starts.map(({ monitor, due }) => ({
            monitorId: monitor._id,
            from: monitor.nextDueAt,
            to: due.next,
          })),
        );
        await this.sweepRunning();
        await digests.onTick(now);
      },

      /**
       * Settles regions whose task.finished no instance handled, and submits
       * follow-up rounds a node left unsubmitted.
       */
      async sweepRunning() {
        // Round trips only where the run read needs them: a run just started costs its tasks' status.
        for (const run of await store.running(SWEEP_BATCH)) {
          if (run.regions.some((r) => r.followUps.some((f) => !f.submitted))) {
            await starter.submitFollowUps(run._id, clock.now());
          }
          for (const index of run.regions.keys()) await settler.settle(run, index);
          // A region settled in this sweep finishes the run as it is stored (store.saveRegion).
          const insightsOf = (r: RunDoc) => this.insightsOf(r);
          if (
            run.regions.every(isSettled) &&
            (await store.finishIfSettled(run._id, clock.now(), insightsOf))
          ) {
            await this.detectChanges(run);
          }
        }
        await this.sweepUndetected();
      },

      async elect() {
        if (stopping) return;
        const held = await lock
          .acquire(this.broker.nodeID, clock.now(), ttl)
          .catch((err: unknown) => {
            this.logger.warn('monitors leader lock check failed:', err);
            return false;
          });
        // A check still in flight when the service stopped must not start the tick timer: it
        // would outlive the broker and keep its process alive.
        if (stopping) return;
        if (held && !leader) {
          leader = true;
          this.logger.info(`monitors ${this.broker.nodeID} is now the leader`);
          tickTimer = setInterval(() => {
            ticking = ticking.then(() =>
              this.tick().catch((err: unknown) => this.logger.warn('monitors tick failed:', err)),
            );
          }, TICK_MS);
        } else if (!held && leader) {
          leader = false;
          clearInterval(tickTimer);
        }
      },
    },

    async started() {
      connection = await acquireConnection(config.mongoUrl, config.mongoDb);
      store = new MonitorStore(monitorModels(connection));
      await store.ensureIndexes();
      lock = new LeaderLock(connection, 'monitors');
      starter = new RunStarter({
        store,
        submit: (call: SubmitCall) => this.broker.call('tasks.submit', call),
        holder: this.broker.nodeID,
        claimMs: START_CLAIM_MS,
        warn: (message, err) => this.logger.warn(message, err),
      });
      digests = new Digests({
        connection,
        models: monitorModels(connection),
        deliver: (request) => this.broker.call('callbacks.deliver', request),
        warn: (message, err) => this.logger.warn(message, err),
      });
      settler = new RegionSettler({
        store,
        starter,
        readTask: (userId, taskId) => this.readTask(userId, taskId),
        statusOf: async (taskId) =>
          (await this.broker.call<TaskBrief, object>('tasks.brief', { taskId })).status,
        insightsOf: (run) => this.insightsOf(run),
        finished: (run) => this.detectChanges(run),
        now: () => clock.now(),
      });
      await this.elect();
      electionTimer = setInterval(
        () => {
          electing = electing.then(() => this.elect());
        },
        Math.max(200, Math.floor(ttl / 3)),
      );
    },

    async stopped() {
      stopping = true;
      clearInterval(electionTimer);
      await electing;
      clearInterval(tickTimer);
      await ticking;
      if (leader) await lock.release(this.broker.nodeID).catch(() => undefined);
      leader = false;
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}
