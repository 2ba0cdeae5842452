/**
 * Every state change of a sub task, as single-document atomic updates guarded
 * by the sub task's status and lease token, followed by the task's counters
 * and final state. No transactions: a crash between the two writes is mended
 * by `reconcile`, which recounts a task from its sub tasks.
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { backoffDelay } from './backoff.js';
import { leases } from '../claim.js';
import { ClaimBookkeeping } from './claim-bookkeeping.js';
import { groupBy } from '../group-by.js';
import type { SubTaskDoc, TaskDoc, TaskModels } from './models.js';
import {
  type TaskStatus,
  FINAL_SUBTASK_STATUSES,
  type Failure,
  type FinalSubTaskStatus,
} from '../contracts/status.js';
import { counterFor, decideRetry, finalTaskStatus } from './state.js';
import { TaskGroups } from './task-groups.js';
import { FinalInsights } from './final-insights.js';
import { answerBrandFields } from '../brand/mentions.js';
import type { CompletedResult, SettleReport } from '../contracts/report.js';
import type { Finished, Settled } from '../contracts/events.js';

export interface LedgerOptions {
  maxAttempts: number;
  backoff: (attempt: number) => number;
  /** How long claims' task bookkeeping is gathered before one write (see ClaimBookkeeping). */
  claimBookkeepingMs: number;
  /** A sentiment judge is configured: answers that mention a group wait for its verdicts. */
  judge?: boolean;
  /**
   * Who settles through this ledger (`settler.ts`: node and incarnation), written as the
   * `uncounted` mark of a final sub task until its settle has counted it.
   */
  settler?: string;
  /** Told of what failed off the settle's path (a final task's insights not stored). */
  warn?: (message: string, err: unknown) => void;
}

/** Whether the process that wrote an `uncounted` mark still runs (`settler.ts`). */
export type SettlerAlive = (settler: string) => boolean;

/** What `mend` did: `done` when the task needs no more mending; the finish if it made it. */
export interface Mended {
  done: boolean;
  finished?: Finished;
}

/** A sub task that ended (its task's counters to add), as `settle` records it. */
export type FinalSettled = Settled & { outcome: FinalSubTaskStatus };

const UNFINISHED: TaskStatus[] = ['pending', 'processing'];
/**
 * What the hot paths read back: they go to the driver's collection directly
 * (no mongoose casting) and fetch only these fields, since every sub task
 * passes through them.
 */
const IDENTITY = { taskId: 1, leaseNode: 1, platform: 1 } as const;
/** An answer's write also reads the requested mode: the effective one when the report names none. */
const ANSWERED = { ...IDENTITY, mode: 1 } as const;
const COUNTERS = { userId: 1, totalItems: 1, completedItems: 1, failedItems: 1 } as const;
type Identity = Pick<SubTaskDoc, '_id' | 'taskId' | 'leaseNode' | 'platform'>;
type Counters = Pick<TaskDoc, '_id' | 'userId' | 'totalItems' | 'completedItems' | 'failedItems'>;
const RELEASE = leases.free();
/**
 * How long a final sub task's `uncounted` mark holds the counter mender off
 * while its settler seems alive: far beyond the seconds a live settle takes
 * between its two writes, even on an overloaded node.
 */
export const UNCOUNTED_STALE_MS = 60_000;
/** The mark of a ledger told no settler: held off only by its age. */
const UNKNOWN_SETTLER = 'unknown';
/**
 * The web account that ran the attempt, when the report names one; a report
 * without (an expired lease) leaves the one recorded before, so the retry
 * still avoids it.
 */
const accountOf = (r: SettleReport) => (r.accountId ? { lastAccount: r.accountId } : {});
/** The guard of every write a lease holder makes. */
const held = (id: string | { $in: string[] }, token: string) => ({
  _id: id as never,
  ...leases.heldWith(token),
  status: 'processing' as const,
});

export class Ledger {
  private readonly claimBookkeeping: ClaimBookkeeping;
  private readonly groups: TaskGroups;
  private readonly finalInsights: FinalInsights;

  constructor(
    private readonly m: TaskModels,
    private readonly clock: Clock,
    private readonly o: LedgerOptions,
  ) {
    this.claimBookkeeping = new ClaimBookkeeping(m, o.claimBookkeepingMs);
    this.groups = new TaskGroups(async (taskId) => {
      const task = (await m.Task.collection.findOne(
        { _id: taskId as never },
        { projection: { keywords: 1 } },
      )) as Pick<TaskDoc, 'keywords'> | null;
      return task ? (task.keywords ?? []) : null;
    });
    this.finalInsights = new FinalInsights(
      m,
      (taskId) => this.groups.of(taskId),
      o.warn ?? (() => {}),
    );
  }

  /** Writes what is still gathered and stored; call before the connection closes. */
  async close(): Promise<void> {
    await Promise.all([this.claimBookkeeping.flush(), this.finalInsights.idle()]);
  }

  /** Resolves once the insights of every task this ledger finished so far are stored (or failed). */
  insightsStored(): Promise<void> {
    return this.finalInsights.idle();
  }

  /**
   * pending → processing under one new lease token, for every listed sub task
   * still pending (one that is not was got to first, or settled). Returns the
   * ids claimed. One guarded update for the whole batch; only when it moved
   * fewer than asked, a read of those that now hold the token.
   */
  async claim(
    subTasks: { id: string; taskId: string }[],
    node: string,
    token: string,
    expiresAt: number,
    instance?: string,
  ): Promise<string[]> {
    const col = this.m.SubTask.collection;
    const ids = [...new Set(subTasks.map((s) => s.id))];
    const res = await col.updateMany(
      { _id: { $in: ids as never[] }, status: 'pending' },
      {
        $set: {
          status: 'processing',
          ...leases.take(token, node, expiresAt),
          leaseInstance: instance ?? null,
          lastNode: node,
        },
        $inc: { attempts: 1 },
      },
    );
    const claimed =
      res.matchedCount === ids.length
        ? ids
        : (
            await col
              .find(
                { _id: { $in: ids as never[] }, ...leases.heldWith(token) },
                { projection: { _id: 1 } },
              )
              .toArray()
          ).map((d) => String(d._id));
    // The task's own bookkeeping stays off the lease's critical path: the lease
    // is already held, and a failure there only delays the status view.
    const taskOf = new Map(subTasks.map((s) => [s.id, s.taskId]));
    for (const id of claimed) this.claimBookkeeping.mark(taskOf.get(id)!);
    return claimed;
  }

  /**
   * Undoes a claim whose lease never started: it never reached a node (refused
   * or unreachable) or the node handed it back unstarted. Back to pending, and
   * the attempt does not count.
   */
  async unclaim(id: string, token: string): Promise<Settled | undefined> {
    // A short pause, so a node that keeps refusing is not asked again in a tight loop.
    const notBefore = this.clock.now() + 250;
    const doc = await this.m.SubTask.findOneAndUpdate(held(id, token), {
      $set: { ...RELEASE, status: 'pending', notBefore },
      $inc: { attempts: -1 },
    }).lean<SubTaskDoc>();
    if (!doc) return undefined;
    await this.bumpVersion(doc.taskId);
    return { ...identity(doc), outcome: 'retry', notBefore };
  }

  /**
   * Extends every lease a node holds, in one round trip: one guarded update
   * per token (leases of one dispatch pass share theirs). Per lease, in the
   * order given, false when it is no longer held. Only when fewer matched than
   * asked, a read finds which.
   */
  async renewMany(asked: { subTaskId: string; token: string }[], expiresAt: number) {
    if (asked.length === 0) return [];
    const col = this.m.SubTask.collection;
    const byToken = groupBy(asked, (l) => l.token);
    const res = await col.bulkWrite(
      [...byToken].map(([token, group]) => ({
        updateMany: {
          filter: held({ $in: group.map((l) => l.subTaskId) }, token),
          update: { $set: leases.extend(expiresAt) },
        },
      })),
      { ordered: false },
    );
    if (res.matchedCount === new Set(asked.map((l) => `${l.subTaskId} ${l.token}`)).size)
      return asked.map(() => true);
    const still = await col
      .find(
        { _id: { $in: asked.map((l) => l.subTaskId) as never[] }, status: 'processing' },
        { projection: { leaseToken: 1 } },
      )
      .toArray();
    const tokenOf = new Map(still.map((d) => [String(d._id), d.leaseToken as string | null]));
    return asked.map((l) => tokenOf.get(l.subTaskId) === l.token);
  }

  /**
   * Records the outcomes of attempts, in the order given: an answer completes
   * its sub task, a failure sends it back to pending for a retry round or ends
   * it. Each entry is undefined when its lease is no longer held (a late
   * report: the sub task has moved on). The sub tasks are written one by one,
   * guarded by their tokens; their tasks' counters once per task.
   */
  async settle(reports: SettleReport[]): Promise<(Settled | undefined)[]> {
    const settled = await Promise.all(
      reports.map((r) => (r.result ? this.recordAnswer(r, r.result) : this.recordFailure(r))),
    );
    const finals = settled.filter(
      (s): s is FinalSettled => s !== undefined && s.outcome !== 'retry',
    );
    await Promise.all(
      [...groupBy(finals, (s) => s.taskId)].map(async ([taskId, group]) => {
        const finished = await this.countFinals(
          taskId,
          group.map((s) => s.outcome),
          group.map((s) => s.subTaskId),
        );
        // The finish goes with one of them, so it is announced once.
        if (finished) group.at(-1)!.finished = finished;
      }),
    );
    return settled;
  }

  private async recordAnswer(
    r: SettleReport,
    result: CompletedResult,
  ): Promise<Settled | undefined> {
    const col = this.m.SubTask.collection;
    const brand = answerBrandFields(await this.groups.of(r.taskId), result);
    const doc = (await col.findOneAndUpdate(
      held(r.subTaskId, r.token),
      {
        $set: {
          ...RELEASE,
          status: 'completed',
          time: this.clock.now(),
          uncounted: this.o.settler ?? UNKNOWN_SETTLER,
          answerContent: result.answerContent,
          referenceList: result.referenceList,
          citationList: result.citationList,
          reasoningProcess: result.reasoningProcess,
          recommendedQuestions: result.recommendedQuestions,
          mediaContent: result.mediaContent,
          pageScreenshot: result.pageScreenshot,
          ...(result.mentionScreenshot && { mentionScreenshot: result.mentionScreenshot }),
          ...(result.screenshotNote && { screenshotNote: result.screenshotNote }),
          proxyIp: r.proxyIp ?? null,
          errorMessage: null,
          ...(r.answerMs !== undefined && { answerMs: r.answerMs }),
          ...(r.startedAt !== undefined && { startedAt: r.startedAt }),
          ...accountOf(r),
          ...(result.effectiveMode !== undefined && { effectiveMode: result.effectiveMode }),
          formatVersion: result.formatVersion ?? null,
          answerSource: result.answerSource ?? null,
          modelReported: result.modelReported ?? null,
          evidenceId: result.evidenceId ?? null,
          ...brand,
          sentiment: null,
          ...this.judging(brand),
        },
      },
      { returnDocument: 'before', projection: ANSWERED },
    )) as (Identity & Pick<SubTaskDoc, 'mode'>) | null;
    if (!doc) return undefined;
    // A report without the effective mode (a node that does not read it) ran the requested one.
    if (result.effectiveMode === undefined)
      await col.updateOne({ _id: doc._id as never }, { $set: { effectiveMode: doc.mode } });
    return { ...identity(doc), outcome: 'completed' };
  }

  /** The judge's queue mark (services/tasks/judge.ts) for an answer that mentions a group. */
  private judging(brand: { mentioned: boolean }) {
    return this.o.judge && brand.mentioned ? { sentimentPending: true, sentimentNotBefore: 0 } : {};
  }

  /**
   * A failure is decided from the report's attempt number and written at
   * once, guarded by that number too; one whose number is not the stored one
   * reads the sub task first.
   */
  private async recordFailure(r: SettleReport): Promise<Settled | undefined> {
    const settled = await this.writeFailure(r, r.attempt);
    if (settled !== null) return settled;
    const current = (await this.m.SubTask.collection.findOne(held(r.subTaskId, r.token), {
      projection: { attempts: 1 },
    })) as Pick<SubTaskDoc, 'attempts'> | null;
    if (!current) return undefined;
    return (await this.writeFailure(r, current.attempts)) ?? undefined;
  }

  /** null: the lease is not held at this attempt number. */
  private async writeFailure(r: SettleReport, attempt: number): Promise<Settled | null> {
    const failure = r.failure!;
    const decision = decideRetry(
      failure,
      attempt,
      this.o.maxAttempts,
      this.clock.now(),
      this.o.backoff,
    );
    const set =
      decision.kind === 'retry'
        ? {
            ...RELEASE,
            status: 'pending',
            notBefore: decision.notBefore,
            errorMessage: failure.message,
            lastProxy: r.proxyKey ?? null,
            ...accountOf(r),
          }
        : {
            ...RELEASE,
            status: decision.status,
            time: this.clock.now(),
            uncounted: this.o.settler ?? UNKNOWN_SETTLER,
            errorMessage: failure.message,
            proxyIp: r.proxyIp ?? null,
            lastProxy: r.proxyKey ?? null,
            ...accountOf(r),
          };
    const doc = (await this.m.SubTask.collection.findOneAndUpdate(
      { ...held(r.subTaskId, r.token), attempts: attempt },
      { $set: set },
      { returnDocument: 'before', projection: IDENTITY },
    )) as Identity | null;
    if (!doc) return null;
    if (decision.kind === 'final') return { ...identity(doc), outcome: decision.status };
    await this.bumpVersion(doc.taskId);
    return { ...identity(doc), outcome: 'retry', notBefore: decision.notBefore };
  }

  /** A pending sub task that cannot run at all (e.g. no node for its region in time). */
  async failPending(id: string, failure: Failure): Promise<Settled | undefined> {
    const before = await this.m.SubTask.findOne({ _id: id, status: 'pending' })
      .select({ errorMessage: 1 })
      .lean<Pick<SubTaskDoc, 'errorMessage'>>();
    if (!before) return undefined;
    const doc = await this.m.SubTask.findOneAndUpdate(
      { _id: id, status: 'pending' },
      {
        $set: {
          ...RELEASE,
          status: failure.status,
          time: this.clock.now(),
          uncounted: this.o.settler ?? UNKNOWN_SETTLER,
          errorMessage: firstCause(before.errorMessage, failure.message),
        },
      },
      { returnDocument: 'before' },
    ).lean<SubTaskDoc>();
    if (!doc) return undefined;
    const finished = await this.countFinals(doc.taskId, [failure.status], [doc._id]);
    return { ...identity(doc), outcome: failure.status, finished };
  }

  /** Leases past their expiry, or held by the given node (which is gone), with their attempt. */
  async staleLeases(
    node?: string,
    /** Only the leases of the node's other incarnations (it restarted as this instance). */
    butInstance?: string,
  ): Promise<Pick<SubTaskDoc, '_id' | 'taskId' | 'leaseToken' | 'leaseNode' | 'attempts'>[]> {
    const filter =
      node === undefined
        ? { status: 'processing' as const, ...leases.lapsed(this.clock.now()) }
        : {
            status: 'processing' as const,
            leaseNode: node,
            // A lease taken with no incarnation known is never taken for another one's.
            ...(butInstance !== undefined && { leaseInstance: { $nin: [butInstance, null] } }),
          };
    return this.m.SubTask.find(filter, {
      taskId: 1,
      leaseToken: 1,
      leaseNode: 1,
      attempts: 1,
    }).lean<SubTaskDoc[]>();
  }

  /**
   * Recounts a task from its sub tasks, fixes drifted counters and finishes it.
   * It only acts on a task whose sub tasks are all final and quiet for
   * `quietMs`: a settle adds to the counters a moment after it writes the sub
   * task, and recounting inside that moment would count it twice. The new
   * counts are written only if the task's `version` has not moved since they
   * were taken (a settle in between bumps it), so a settle that lands while the
   * recount runs is never overwritten or counted twice.
   * Returns the finish when this call made it.
   */
  async reconcile(
    taskId: string,
    quietMs: number,
    alive?: SettlerAlive,
  ): Promise<Finished | undefined> {
    return (await this.mend(taskId, quietMs, alive)).finished;
  }

  /**
   * As `reconcile`, and says whether the task needs no more mending: it is
   * final (now or before), or gone. Not done: sub tasks still open, not quiet
   * yet, or a settle raced the recount; ask again later.
   */
  async mend(taskId: string, quietMs: number, alive?: SettlerAlive): Promise<Mended> {
    const task = await this.m.Task.findById(taskId).lean<TaskDoc>();
    if (!task || !UNFINISHED.includes(task.status)) return { done: true };
    const open = await this.m.SubTask.countDocuments({
      taskId,
      status: { $in: ['pending', 'processing'] },
    });
    if (open > 0) return { done: false };
    const latest = await this.m.SubTask.findOne({ taskId }, { time: 1 })
      .sort({ time: -1 })
      .lean<SubTaskDoc>();
    if ((latest?.time ?? 0) > this.clock.now() - quietMs) return { done: false };
    // A settle between its final write and its count (an overloaded tasks node can take
    // seconds there): counting now and then its addition would count it twice. So a mark
    // holds the recount off while the process that wrote it runs; a mark of a process that
    // is gone (restarted or left), or older than UNCOUNTED_STALE_MS, is recounted below.
    const marks: unknown[] = await this.m.SubTask.distinct('uncounted', {
      taskId,
      uncounted: { $exists: true },
      time: { $gt: this.clock.now() - UNCOUNTED_STALE_MS },
    });
    const settling = marks.some(
      (mark) => typeof mark !== 'string' || mark === UNKNOWN_SETTLER || !alive || alive(mark),
    );
    if (settling) return { done: false };
    const [completed, failed] = await Promise.all([
      this.m.SubTask.countDocuments({ taskId, status: 'completed' }),
      this.m.SubTask.countDocuments({ taskId, status: { $in: ['failed', 'timeout', 'error'] } }),
    ]);
    if (completed !== task.completedItems || failed !== task.failedItems) {
      const res = await this.m.Task.updateOne(
        { _id: taskId, version: task.version ?? null },
        { $set: { completedItems: completed, failedItems: failed }, $inc: { version: 1 } },
      );
      if (res.matchedCount === 0) return { done: false };
    }
    await this.m.SubTask.updateMany(
      { taskId, uncounted: { $exists: true } },
      { $unset: { uncounted: '' } },
    );
    const finished = await this.finishIfDone({
      ...task,
      completedItems: completed,
      failedItems: failed,
    });
    return { done: true, finished };
  }

  /**
   * The final ones among these sub tasks, as settled. A report dropped because
   * its sub task is already final was most likely sent again after a call
   * whose answer never came: the tasks node that wrote the result may have
   * died before counting it and announcing it.
   */
  async finalAmong(ids: string[]): Promise<FinalSettled[]> {
    if (ids.length === 0) return [];
    const docs = await this.m.SubTask.find(
      { _id: { $in: ids }, status: { $in: [...FINAL_SUBTASK_STATUSES] } },
      { taskId: 1, leaseNode: 1, platform: 1, status: 1 },
    ).lean<(Identity & { status: FinalSubTaskStatus })[]>();
    return docs.map((d) => ({ ...identity(d), outcome: d.status }));
  }

  /** Unfinished tasks created before the cutoff, for periodic reconciliation. */
  async unfinishedTaskIds(createdBefore: number): Promise<string[]> {
    const docs = await this.m.Task.find(
      { status: { $in: UNFINISHED }, createdAt: { $lt: createdBefore } },
      { _id: 1 },
    ).lean<{ _id: string }[]>();
    return docs.map((d) => d._id);
  }

  /**
   * Adds sub tasks that became final to their task's counters, then takes off
   * their `uncounted` mark; the finish, if this made it.
   */
  private async countFinals(
    taskId: string,
    statuses: FinalSubTaskStatus[],
    subTaskIds: string[],
  ): Promise<Finished | undefined> {
    const inc: Record<string, number> = { version: 1 };
    for (const status of statuses) inc[counterFor(status)] = (inc[counterFor(status)] ?? 0) + 1;
    const task = (await this.m.Task.collection.findOneAndUpdate(
      { _id: taskId as never },
      { $inc: inc },
      { returnDocument: 'after', projection: COUNTERS },
    )) as Counters | null;
    await this.m.SubTask.collection.updateMany(
      { _id: { $in: subTaskIds as never[] } },
      { $unset: { uncounted: '' } },
    );
    return task ? this.finishIfDone(task) : undefined;
  }

  /**
   * Exactly one caller wins the move to a final state, and only it reports the
   * finish, and has the task's insights summed and stored (final-insights.ts).
   */
  private async finishIfDone(task: Counters): Promise<Finished | undefined> {
    const status = finalTaskStatus(task.totalItems, task.completedItems, task.failedItems);
    if (!status) return undefined;
    const completedAt = this.clock.now();
    const won = await this.m.Task.findOneAndUpdate(
      { _id: task._id, status: { $in: UNFINISHED } },
      { $set: { status, completedAt }, $inc: { version: 1 } },
      { returnDocument: 'after', projection: { _id: 1 } },
    ).lean<Pick<TaskDoc, '_id'>>();
    if (!won) return undefined;
    this.finalInsights.store(task._id);
    return { taskId: task._id, userId: task.userId, status, completedAt };
  }

  private async bumpVersion(taskId: string): Promise<void> {
    await this.m.Task.updateOne({ _id: taskId }, { $inc: { version: 1 } });
  }
}

function identity(doc: Identity) {
  return {
    subTaskId: doc._id,
    taskId: doc.taskId,
    node: doc.leaseNode ?? null,
    platform: doc.platform,
  };
}

/** Short enough that a status view barely lags, long enough to gather a dispatch pass. */
const CLAIM_BOOKKEEPING_MS = 50;

/** The ledger with the configured retry policy (one policy for the whole system). */
export function createLedger(
  models: TaskModels,
  config: Config,
  clock: Clock,
  settler?: string,
  warn?: LedgerOptions['warn'],
): Ledger {
  const s = config.scheduling;
  return new Ledger(models, clock, {
    settler,
    warn,
    maxAttempts: s.maxAttempts,
    backoff: (attempt) =>
      backoffDelay(attempt, { baseMs: s.retryBaseMs, maxMs: s.retryMaxMs, jitter: 0.2 }),
    claimBookkeepingMs: CLAIM_BOOKKEEPING_MS,
    judge: config.analysis !== null,
  });
}

/**
 * The message of a sub task that failed waiting for its next attempt: an
 * earlier attempt's error is the real cause and comes first; why the retry
 * found no place follows it (otherwise a placement message such as "1 usable
 * but not on a live proxy port" would hide a missing control or a wall).
 */
export function firstCause(earlier: string | null | undefined, unplaced: string): string {
  return earlier ? `${earlier} (not retried: ${unplaced})` : unplaced;
}
