/**
 * The `tasks` service owns batch tasks and sub tasks: submission, status,
 * results and the task list. Handlers are wiring; the logic lives in the pure
 * modules beside this file and in TaskStore.
 */
import { HOLD_MS, SentimentJudge } from './judge.js';
import type { JudgeAnswer, JudgeRequest } from '../shared/contracts/judge.js';
import type { Context, ServiceSchema } from 'moleculer';
import type { Config } from '../shared/config.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { newTaskId } from '../shared/ids.js';
import { acquireConnection, releaseConnection } from '../shared/mongo.js';
import { refusedCallbackField } from '../shared/webhooks/address.js';
import { AddressPolicy } from '../shared/webhooks/ssrf.js';
import { activeChannel, channelsOf, PLATFORMS } from '../shared/platforms.js';
import { crawlerNodes } from '../shared/contracts/advert.js';
import type { CoverageAnswer } from '../shared/contracts/accounts.js';
import { verdictOf, type AvailabilityFacts } from '../shared/availability.js';
import { announceFinished, announceSettled } from '../shared/subtasks/events.js';
import { type TaskCreated } from '../shared/contracts/events.js';
import { toQueueItem } from '../shared/subtasks/queue-item.js';
import { createLedger, type Ledger } from '../shared/subtasks/ledger.js';
import {
  type SettleReport,
  type SettleRequest,
  type SettleAnswer,
} from '../shared/contracts/report.js';
import { CounterMender } from './mender.js';
import { settlerAlive, settlerOf } from '../shared/subtasks/settler.js';
import { keyedSubmission, replay } from './idempotent.js';
import { taskModels } from '../shared/subtasks/models.js';
import {
  checkListQuery,
  checkPlatformsQuery,
  checkTaskId,
} from '../shared/requests/task-queries.js';
import { briefOf, TaskStore } from './store.js';
import type {
  FinishedPageRequest,
  TaskBrief,
  TaskBriefRequest,
} from '../shared/contracts/callbacks.js';
import {
  checkSubmission,
  regionProblem,
  requestedRegion,
  type RegionPorts,
} from '../shared/requests/submission.js';
import {
  subTaskResult,
  submitAnswer,
  taskListItem,
  taskResultView,
  visibilityView,
  taskStatusView,
} from '../shared/task-views.js';
import type { RenewRequest, RenewAnswer } from '../shared/contracts/lease.js';
import {
  storedBrandFields,
  type ExportPage,
  type ExportPageRequest,
} from '../shared/contracts/export.js';
import { CollectorStore } from './collectors/store.js';
import { keywordGroups } from '../shared/brand/groups.js';
import { usableInsights } from '../shared/brand/stored-insights.js';
import { visibilityOf } from '../shared/brand/visibility.js';
import { collectorModels } from './collectors/models.js';
import { attemptOutcomes } from './collectors/attempts.js';
import { evidenceFacts, type EvidencePage } from '../shared/evidence-facts.js';

/** A submission older than this with unwritten sub tasks was interrupted by a crash. */
const INTERRUPTED_AFTER_MS = 60_000;
/** Tasks one `insights` call counts together at most (a monitor run: its regions and their rounds). */
const INSIGHT_TASKS = 1_000;
/**
 * How long a task's sub tasks must all have been final before its counters
 * are recounted: a settle adds to the counters a moment (milliseconds) after
 * it writes the sub task, so a recount inside that moment would count the sub
 * task twice. The recount is also guarded by the task's version.
 */
const MEND_QUIET_MS = 1_500;
const MEND_EVERY_MS = 500;
const MEND_PER_TICK = 50;

type UserParams = { userId: number };
/** A crawler node's report of one attempt (a SettleReport), as the actions check it. */
const REPORT_PROPS = {
  subTaskId: 'string',
  taskId: 'string',
  token: 'string',
  attempt: { type: 'number', integer: true, positive: true },
  result: { type: 'object', optional: true },
  failure: { type: 'object', optional: true },
  proxyIp: { type: 'string', optional: true, nullable: true },
  proxyKey: { type: 'string', optional: true, nullable: true },
  accountId: { type: 'string', optional: true, nullable: true },
  answerMs: { type: 'number', integer: true, min: 0, optional: true },
  startedAt: { type: 'number', integer: true, min: 0, optional: true },
  web: { type: 'object', optional: true },
} as const;
type TaskParams = UserParams & { taskId: string };

/** The params of the paged reads (`exportPage`, `evidencePage`): the last `seq` is the cursor. */
const PAGE_PARAMS = {
  userId: 'number',
  taskId: 'any',
  afterSeq: { type: 'number', integer: true, min: -1 },
  limit: { type: 'number', integer: true, positive: true, max: 1000 },
} as const;

async function pageOfTask(store: TaskStore, p: ExportPageRequest) {
  const task = await store.findTask(p.userId, checkTaskId(p.taskId));
  return { task, docs: await store.pageOf(task, p.afterSeq, p.limit) };
}

export function tasksService(config: Config, clock: Clock = systemClock): ServiceSchema {
  let store: TaskStore;
  let ledger: Ledger;
  let collectors: CollectorStore;
  let mender: CounterMender | undefined;
  let judge: SentimentJudge | undefined;
  const callbackPolicy = new AddressPolicy(config.callbacks.allowCidrs);
  return {
    name: 'tasks',

    actions: {
      /**
       * A batch submission. The monitors service also names the task's id (so a run
       * resumed after a crash resubmits nothing: the id is taken, 409) and `samples`.
       */
      submit: {
        params: {
          userId: 'number',
          body: { type: 'any', optional: true, nullable: true },
          taskId: { type: 'uuid', optional: true },
          samples: { type: 'number', integer: true, min: 1, max: 20, optional: true },
          /** The request's Idempotency-Key header, as sent (checked here with the body). */
          idempotencyKey: { type: 'string', optional: true },
        },
        async handler(
          ctx: Context<
            UserParams & {
              body: unknown;
              taskId?: string;
              samples?: number;
              idempotencyKey?: string;
            }
          >,
        ) {
          const { keyed, problem: keyProblem } = keyedSubmission(
            ctx.params.userId,
            ctx.params.idempotencyKey,
            ctx.params.body,
          );
          // A retry is answered before any check: the first try passed them, and its own
          // sub tasks now count against the user's limit of unfinished ones.
          const earlier = keyed && (await store.taskIfAny(ctx.params.userId, keyed.taskId));
          if (earlier) return submitAnswer(replay(earlier, keyed), true);
          // A region no proxy port serves is the first cause: availability there says nothing
          // more. The region is looked up only for a request that is otherwise well formed.
          const shape = checkSubmission(ctx.params.body, config.scheduling.platformChannels);
          const regionCode = requestedRegion(ctx.params.body);
          const region =
            shape.ok && regionCode !== null
              ? regionProblem(
                  regionCode,
                  await ctx.call<RegionPorts, object>('proxies.regions', {}),
                )
              : undefined;
          const checked = region
            ? shape
            : checkSubmission(
                ctx.params.body,
                config.scheduling.platformChannels,
                await this.availabilityFacts(ctx),
              );
          // Spec 6 / DESIGN: a callback address that reaches internal hosts is refused up front.
          const refused = await refusedCallbackField(ctx.params.body, callbackPolicy);
          if (!checked.ok || refused || region || keyProblem) {
            throw AppError.invalid([
              ...(checked.ok ? [] : checked.errors),
              ...(refused ? [refused] : []),
              ...(region ? [region] : []),
              ...(keyProblem ? [keyProblem] : []),
            ]);
          }
          const submission = checked.value;
          const adding =
            submission.prompts.length * submission.platforms.length * (ctx.params.samples ?? 1);
          const open = await store.unfinishedSubTasks(ctx.params.userId);
          if (open + adding > config.maxUnfinishedSubtasks) {
            throw AppError.rateLimited(
              `too many unfinished sub tasks: ${open} running, ${adding} submitted, limit ${config.maxUnfinishedSubtasks}`,
              60,
              'TOO_MANY_UNFINISHED',
            );
          }
          const taskId = keyed?.taskId ?? ctx.params.taskId ?? newTaskId();
          let created;
          try {
            created = await store.create(taskId, ctx.params.userId, submission, {
              samples: ctx.params.samples,
              requestFingerprint: keyed?.fingerprint,
            });
          } catch (err) {
            // Two tries with one key at once: the other one's task is this one's answer.
            const other =
              keyed && (err as AppError).type === 'CONFLICT'
                ? await store.taskIfAny(ctx.params.userId, keyed.taskId)
                : undefined;
            if (other) return submitAnswer(replay(other, keyed!), true);
            throw err;
          }
          const { task, subtasks } = created;
          this.logger.info(
            { requestId: ctx.requestID, taskId, userId: ctx.params.userId, subtasks: adding },
            'task submitted',
          );
          await ctx.broadcast('task.created', {
            taskId,
            items: subtasks.map(toQueueItem),
          } satisfies TaskCreated);
          return submitAnswer({ task, subtasks }, false);
        },
      },

      /** Sub tasks by platform, channel and status, answer times and web outcomes (the api's /metrics). */
      figures: {
        async handler() {
          const [figures, webOutcomes] = await Promise.all([
            store.figures(),
            collectors.outcomeCounts(),
          ]);
          return { ...figures, webOutcomes };
        },
      },

      /** Web-channel collector health per platform × region × account (filters checked by the api). */
      collectors: {
        params: {
          platform: { type: 'string', optional: true },
          regionCode: { type: 'string', optional: true },
        },
        async handler(ctx: Context<{ platform?: string; regionCode?: string }>) {
          return collectors.health(ctx.params);
        },
      },

      status: {
        params: { userId: 'number', taskId: 'any' },
        async handler(ctx: Context<TaskParams>) {
          const { task, summaries } = await store.statusOf(
            ctx.params.userId,
            checkTaskId(ctx.params.taskId),
          );
          return taskStatusView(task, summaries);
        },
      },

      result: {
        params: { userId: 'number', taskId: 'any' },
        async handler(ctx: Context<TaskParams>) {
          const task = await store.findTask(ctx.params.userId, checkTaskId(ctx.params.taskId), {
            withInsights: true,
          });
          return taskResultView(task, await store.resultsOf(task));
        },
      },

      /**
       * One page of a task's sub tasks for an export (`GET …/export`): the
       * result views in `seq` order after `afterSeq`, each with its brand fields
       * as stored (absent on older documents: none). The api pages through with
       * the last `seq` as the cursor, so neither side holds the whole task.
       */
      exportPage: {
        params: PAGE_PARAMS,
        async handler(ctx: Context<ExportPageRequest>): Promise<ExportPage> {
          const { task, docs } = await pageOfTask(store, ctx.params);
          return {
            taskId: task._id,
            name: task.name ?? null,
            keywords: task.keywords ?? [],
            items: docs.map((doc) => ({
              seq: doc.seq,
              result: subTaskResult(doc),
              brand: storedBrandFields(doc),
              discovered: doc.discovered ?? [],
            })),
          };
        },
      },

      visibility: {
        params: { userId: 'number', taskId: 'any' },
        async handler(ctx: Context<TaskParams>) {
          const task = await store.findTask(ctx.params.userId, checkTaskId(ctx.params.taskId), {
            withInsights: true,
          });
          const stored = usableInsights(task) !== null;
          return visibilityView(
            task,
            await store.visibilityInputs(task._id, { insights: !stored }),
          );
        },
      },

      /**
       * The insights (discovered brands, citation opportunities) of several
       * tasks' sub tasks counted as one, as a task's visibility computes them:
       * a monitor run's regions and follow-up rounds. The groups are the first
       * task's (a run's tasks share them).
       */
      insights: {
        params: {
          userId: 'number',
          taskIds: { type: 'array', items: 'string', min: 1, max: INSIGHT_TASKS },
        },
        async handler(ctx: Context<{ userId: number; taskIds: string[] }>) {
          const tasks = await Promise.all(
            ctx.params.taskIds.map((id) => store.findTask(ctx.params.userId, checkTaskId(id))),
          );
          const inputs = await Promise.all(tasks.map((task) => store.visibilityInputs(task._id)));
          // Summed over all the tasks' answers: one task's stored insights are its own only.
          const groups = keywordGroups(tasks[0]!.keywords ?? []);
          const { discovered, opportunities } = visibilityOf(groups, inputs.flat());
          return { discovered, opportunities };
        },
      },

      /** A task as its callback delivery needs it: the owner's with `userId`, else any user's. */
      brief: {
        params: { taskId: 'any', userId: { type: 'number', optional: true } },
        async handler(ctx: Context<TaskBriefRequest>): Promise<TaskBrief> {
          const taskId = checkTaskId(ctx.params.taskId);
          const { userId } = ctx.params;
          return briefOf(
            userId === undefined
              ? await store.findAnyTask(taskId)
              : await store.findTask(userId, taskId),
          );
        },
      },

      /** Final tasks in completion order, a page at a time (the callbacks sweep). */
      finishedPage: {
        params: {
          since: 'number',
          after: {
            type: 'object',
            optional: true,
            props: { completedAt: 'number', taskId: 'string' },
          },
          limit: { type: 'number', integer: true, positive: true, max: 1000 },
        },
        async handler(ctx: Context<FinishedPageRequest>): Promise<TaskBrief[]> {
          return store.finishedPage(ctx.params);
        },
      },

      subTaskResult: {
        params: { userId: 'number', taskId: 'any', subTaskId: 'string' },
        async handler(ctx: Context<TaskParams & { subTaskId: string }>) {
          const taskId = checkTaskId(ctx.params.taskId);
          const sub = await store.findSubTask(ctx.params.userId, taskId, ctx.params.subTaskId);
          return subTaskResult(sub);
        },
      },

      /** What an evidence bundle says of one sub task (services/api/evidence/); the owner's only. */
      evidenceFacts: {
        params: { userId: 'number', taskId: 'any', subTaskId: 'string' },
        async handler(ctx: Context<TaskParams & { subTaskId: string }>) {
          const taskId = checkTaskId(ctx.params.taskId);
          const task = await store.findTask(ctx.params.userId, taskId);
          const sub = await store.findSubTask(ctx.params.userId, taskId, ctx.params.subTaskId);
          return evidenceFacts(sub, task);
        },
      },

      /** A page of a task's evidence facts in `seq` order, as `exportPage` pages its results. */
      evidencePage: {
        params: PAGE_PARAMS,
        async handler(ctx: Context<ExportPageRequest>): Promise<EvidencePage> {
          const { task, docs } = await pageOfTask(store, ctx.params);
          return { taskId: task._id, items: docs.map((doc) => evidenceFacts(doc, task)) };
        },
      },

      /**
       * A crawler node extends all its leases at once, at half their length;
       * each false means that lease is gone and its work must stop.
       */
      renewBatch: {
        params: {
          leases: {
            type: 'array',
            items: { type: 'object', props: { subTaskId: 'string', token: 'string' } },
          },
        },
        async handler(ctx: Context<RenewRequest>): Promise<RenewAnswer> {
          const expiresAt = clock.now() + config.scheduling.leaseMs;
          return { held: await ledger.renewMany(ctx.params.leases, expiresAt), expiresAt };
        },
      },

      /** A lease the node held but never started (it is stopping): pending again, no attempt used. */
      release: {
        params: { subTaskId: 'string', token: 'string' },
        async handler(ctx: Context<{ subTaskId: string; token: string }>) {
          const settled = await ledger.unclaim(ctx.params.subTaskId, ctx.params.token);
          if (!settled) return { released: false };
          await announceSettled(this.broker, [settled]);
          return { released: true };
        },
      },

      /**
       * The one result of each attempt a crawler node reports: an answer, or a
       * classified failure. A late report from an expired lease is dropped: the
       * sub task has moved on.
       */
      settleBatch: {
        params: { reports: { type: 'array', items: { type: 'object', props: REPORT_PROPS } } },
        async handler(ctx: Context<SettleRequest>): Promise<SettleAnswer> {
          return { results: await this.settleReports(ctx.params.reports) };
        },
      },

      list: {
        params: { userId: 'number', query: { type: 'object', optional: true } },
        async handler(ctx: Context<UserParams & { query?: Record<string, unknown> }>) {
          const q = checkListQuery(ctx.params.query ?? {});
          const { total, tasks } = await store.list(ctx.params.userId, q);
          return { total, page: q.page, size: q.size, tasks: tasks.map(taskListItem) };
        },
      },

      /**
       * Per platform, its active channel and the verdict of each of its
       * channels for a request in the region (none: any region), by the rule
       * the submission check applies (availability.ts).
       */
      availability: {
        params: { query: { type: 'object', optional: true } },
        async handler(ctx: Context<{ query?: Record<string, unknown> }>) {
          const { regionCode } = checkPlatformsQuery(ctx.params.query ?? {});
          const facts = await this.availabilityFacts(ctx);
          return PLATFORMS.map((p) => ({
            platform: p.name,
            channel: activeChannel(p, config.scheduling.platformChannels),
            verdicts: Object.fromEntries(
              channelsOf(p).map((c) => [c, verdictOf(p, c, regionCode, facts)]),
            ),
          }));
        },
      },
    },

    methods: {
      async settleReports(reports: SettleReport[]): Promise<SettleAnswer['results']> {
        const settled = await ledger.settle(reports);
        await Promise.all([
          announceSettled(this.broker, settled),
          // The results are stored: a count lost here is only a count.
          collectors
            .record(attemptOutcomes(reports, settled))
            .catch((err: unknown) => this.logger.warn('counting web attempts failed', err)),
        ]);
        await this.orphansOf(reports.filter((_, i) => !settled[i]));
        return settled.map((s) =>
          s ? { accepted: true, outcome: s.outcome } : { accepted: false },
        );
      },

      /**
       * Dropped reports whose sub task is final: the result was written by a
       * call that got no answer, maybe by a tasks node that died before it
       * counted and announced it. Announce it (the scheduler may still count
       * it as running) and have its task's counters mended.
       */
      async orphansOf(dropped: SettleReport[]) {
        const finals = await ledger.finalAmong(dropped.map((r) => r.subTaskId));
        if (finals.length === 0) return;
        await announceSettled(this.broker, finals);
        mender?.suspect(finals.map((f) => f.taskId));
      },

      /**
       * The live crawler nodes and where accounts are. A cluster without an
       * accounts service has no account; one that does not answer leaves it
       * unknown.
       */
      async availabilityFacts(ctx: Context): Promise<AvailabilityFacts> {
        const nodes = crawlerNodes(
          this.broker.registry.nodes.list({ onlyAvailable: true, withServices: false }),
        );
        if (!this.broker.registry.actions.get('accounts.coverage')) return { nodes, accounts: {} };
        const accounts = await ctx.call<CoverageAnswer>('accounts.coverage').then(
          (answer) => answer.regions,
          () => undefined,
        );
        return { nodes, accounts };
      },
    },

    async started() {
      const connection = await acquireConnection(config.mongoUrl, config.mongoDb);
      store = new TaskStore(taskModels(connection), clock);
      ledger = createLedger(
        taskModels(connection),
        config,
        clock,
        settlerOf(this.broker),
        (message, err) => this.logger.warn(message, err),
      );
      await store.ensureIndexes();
      collectors = new CollectorStore(collectorModels(connection), clock);
      await collectors.ensureIndexes();
      const repaired = await store.repairUnwritten(INTERRUPTED_AFTER_MS);
      if (repaired > 0) this.logger.warn(`completed ${repaired} interrupted submission(s)`);
      mender = new CounterMender({
        mend: (taskId) =>
          ledger.mend(taskId, MEND_QUIET_MS, (settler) => settlerAlive(this.broker, settler)),
        announce: (finished) => announceFinished(this.broker, finished),
        warn: (message, err) => this.logger.warn(message, err),
        everyMs: MEND_EVERY_MS,
        perTick: MEND_PER_TICK,
      });
      // The tasks node before this one may have died between a sub task's
      // write and its count: every unfinished task is a suspect.
      mender.suspect(await ledger.unfinishedTaskIds(clock.now() + 1));
      mender.start();
      if (config.analysis) {
        judge = new SentimentJudge(
          {
            subtasks: taskModels(connection).SubTask.collection,
            ask: (request) =>
              this.broker.call<JudgeAnswer, JudgeRequest>('crawler.judge', request, {
                timeout: HOLD_MS - 30_000,
              }),
            clock,
            warn: (message, err) => this.logger.warn(message, err),
          },
          config.analysis,
        );
        judge.start();
      }
    },

    async stopped() {
      await judge?.stop();
      await mender?.stop();
      await ledger.close();
      await releaseConnection(config.mongoUrl, config.mongoDb);
    },
  };
}
