/** MongoDB I/O of monitors and their runs; every write a run's start makes is guarded by its claim. */
import type { Model } from 'mongoose';
import { AppError } from '../shared/errors.js';
import type { MonitorInput } from '../shared/requests/monitor.js';
import {
  startClaims,
  type MonitorDoc,
  type MonitorModels,
  type RunDoc,
  type RunInsightsDoc,
  type RunRegionDoc,
} from './models.js';
import type { FollowUpDoc } from './rounds.js';
import type { CellSnapshot } from './snapshot.js';
import type { RegionPools } from './trends/pooled.js';
import type { TaskStatus } from '../shared/contracts/status.js';

export interface Page<T> {
  total: number;
  items: T[];
}

/** A settled run's insights over all its sub tasks; null when they could not be computed. */
export type InsightsOf = (run: RunDoc) => Promise<RunInsightsDoc | null>;
const noInsights: InsightsOf = async () => null;

/** A start's end: the regions it submitted now, by index, each with its refusal or null. */
export interface StartMark {
  runId: string;
  token: string;
  regions: { index: number; error: string | null }[];
  allRefused: boolean;
}

/** A write refused only for duplicate keys (every write error of a bulk write, too). */
function isDuplicate(err: unknown): boolean {
  const { code, writeErrors } = err as { code?: number; writeErrors?: { code?: number }[] };
  return writeErrors?.length ? writeErrors.every((e) => e.code === 11000) : code === 11000;
}

export class MonitorStore {
  constructor(private readonly m: MonitorModels) {}

  async ensureIndexes(): Promise<void> {
    await Promise.all([
      this.m.Monitor.createIndexes(),
      this.m.Run.createIndexes(),
      this.m.Change.createIndexes(),
    ]);
  }

  async create(doc: MonitorDoc): Promise<MonitorDoc> {
    await this.m.Monitor.collection.insertOne(doc as never);
    return doc;
  }

  /** A monitor of this user; another user's is as unknown as one that does not exist. */
  async get(userId: number, monitorId: string): Promise<MonitorDoc> {
    const doc = await this.m.Monitor.findOne({ _id: monitorId, userId }).lean<MonitorDoc>();
    if (!doc) throw AppError.notFound(`monitor ${monitorId}`);
    return doc;
  }

  async list(userId: number, page: number, size: number): Promise<Page<MonitorDoc>> {
    return paged(this.m.Monitor, { userId }, { createdAt: -1, _id: 1 }, page, size);
  }

  async replace(
    userId: number,
    monitorId: string,
    input: MonitorInput,
    updatedAt: number,
    nextDueAt: number,
  ): Promise<MonitorDoc> {
    const doc = await this.m.Monitor.findOneAndUpdate(
      { _id: monitorId, userId },
      { $set: { ...input, updatedAt, nextDueAt } },
      { returnDocument: 'after' },
    ).lean<MonitorDoc>();
    if (!doc) throw AppError.notFound(`monitor ${monitorId}`);
    return doc;
  }

  /** The monitor, its runs and their changes: its figures go with it. */
  async remove(userId: number, monitorId: string): Promise<void> {
    const { deletedCount } = await this.m.Monitor.deleteOne({ _id: monitorId, userId });
    if (deletedCount === 0) throw AppError.notFound(`monitor ${monitorId}`);
    await this.m.Run.deleteMany({ monitorId });
    await this.m.Change.deleteMany({ monitorId });
  }

  async due(now: number, limit: number): Promise<MonitorDoc[]> {
    return this.m.Monitor.find({ enabled: true, nextDueAt: { $lte: now } })
      .sort({ nextDueAt: 1 })
      .limit(limit)
      .lean<MonitorDoc[]>();
  }

  /** Moves each monitor's next slot on, only from the value the caller saw (another node may have), in one write. */
  async advance(moves: { monitorId: string; from: number; to: number }[]): Promise<void> {
    if (moves.length === 0) return;
    await this.m.Monitor.bulkWrite(
      moves.map((m) => ({
        updateOne: {
          filter: { _id: m.monitorId, nextDueAt: m.from },
          update: { $set: { nextDueAt: m.to } },
        },
      })),
      { ordered: false },
    );
  }

  /**
   * Inserts the runs at once; the ids of those stored by this call. A run whose
   * slot key exists already (another node created it) is left out.
   */
  async createRuns(runs: RunDoc[]): Promise<Set<string>> {
    try {
      await this.m.Run.collection.insertMany(runs as never[], { ordered: false });
      return new Set(runs.map((r) => r._id));
    } catch (err) {
      if (!isDuplicate(err)) throw err;
    }
    // Some were duplicates: the ids are fresh, so those found were stored by this call.
    const stored = await this.m.Run.find({ _id: { $in: runs.map((r) => r._id) } }, { _id: 1 }).lean<
      { _id: string }[]
    >();
    return new Set(stored.map((r) => r._id));
  }

  /** One run whose start was left by a node that died or stalled, now claimed by `token`. */
  async takeStalledStart(
    now: number,
    token: string,
    holder: string,
    until: number,
  ): Promise<RunDoc | null> {
    return this.takeClaim({ status: 'starting', ...startClaims.lapsed(now) }, token, holder, until);
  }

  private async takeClaim(
    filter: Record<string, unknown>,
    token: string,
    holder: string,
    until: number,
  ): Promise<RunDoc | null> {
    return this.m.Run.findOneAndUpdate(
      filter,
      { $set: startClaims.take(token, holder, until) },
      { returnDocument: 'after' },
    ).lean<RunDoc>();
  }

  /**
   * Marks a follow-up (`path` is `regions.<i>.followUps.<j>`) submitted, or
   * refused with `error`, under the claim `token`; false: the claim was lost,
   * so the caller stops.
   */
  async markSubmitted(
    runId: string,
    path: string,
    token: string,
    error: string | null,
  ): Promise<boolean> {
    const { modifiedCount } = await this.m.Run.updateOne(
      { _id: runId, ...startClaims.heldWith(token) },
      { $set: { [`${path}.submitted`]: true, [`${path}.error`]: error } },
    );
    return modifiedCount === 1;
  }

  /**
   * Ends starts, each under its claim, in one write: its regions marked
   * submitted (or refused), the run running (failed when all were refused)
   * and the claim freed. A start whose claim was lost is left to its holder.
   */
  async markStarts(marks: StartMark[]): Promise<void> {
    if (marks.length === 0) return;
    await this.m.Run.bulkWrite(
      marks.map((mark) => ({
        updateOne: {
          filter: { _id: mark.runId, ...startClaims.heldWith(mark.token) },
          update: {
            $set: {
              ...Object.fromEntries(
                mark.regions.flatMap((r) => [
                  [`regions.${r.index}.submitted`, true],
                  [`regions.${r.index}.error`, r.error],
                ]),
              ),
              status: mark.allRefused ? 'failed' : 'running',
              ...startClaims.free(),
            },
          },
        },
      })),
      { ordered: false },
    );
  }

  async run(runId: string): Promise<RunDoc> {
    const run = await this.m.Run.findById(runId).lean<RunDoc>();
    if (!run) throw AppError.notFound(`monitor run ${runId}`);
    return run;
  }

  /** The run a task belongs to: a region's own task or one of its follow-ups. */
  async runOfTask(taskId: string): Promise<RunDoc | null> {
    return this.m.Run.findOne({
      $or: [{ 'regions.taskId': taskId }, { 'regions.followUps.taskId': taskId }],
    }).lean<RunDoc>();
  }

  /**
   * Adds a region's next round, ids chosen, once: only while the region is
   * open and has the follow-ups the caller saw (two nodes planning it store one).
   */
  async addRound(
    runId: string,
    index: number,
    seen: number,
    tasks: FollowUpDoc[],
  ): Promise<boolean> {
    const path = `regions.${index}.followUps`;
    const { modifiedCount } = await this.m.Run.updateOne(
      {
        _id: runId,
        status: 'running',
        [`regions.${index}.taskStatus`]: null,
        [path]: { $size: seen },
      },
      { $push: { [path]: { $each: tasks } } },
    );
    return modifiedCount === 1;
  }

  /** A running run with follow-ups to submit, claimed by `token` if free or lapsed. */
  async takeFollowUps(
    runId: string,
    now: number,
    token: string,
    holder: string,
    until: number,
  ): Promise<RunDoc | null> {
    return this.takeClaim(
      {
        _id: runId,
        status: 'running',
        'regions.followUps.submitted': false,
        $or: [startClaims.free(), startClaims.lapsed(now)],
      },
      token,
      holder,
      until,
    );
  }

  async releaseClaim(runId: string, token: string): Promise<void> {
    await this.m.Run.updateOne(
      { _id: runId, ...startClaims.heldWith(token) },
      { $set: startClaims.free() },
    );
  }

  /** Running runs, oldest first: the sweep that catches a missed task.finished. */
  async running(limit: number): Promise<RunDoc[]> {
    return this.m.Run.find({ status: 'running' })
      .sort({ createdAt: 1 })
      .limit(limit)
      .lean<RunDoc[]>();
  }

  /**
   * Stores a region's figures once, after its last round; the run finishes
   * with its last region (then true), its insights (`insightsOf`) stored in
   * the same write.
   */
  async saveRegion(
    runId: string,
    taskId: string,
    taskStatus: TaskStatus,
    cells: CellSnapshot[],
    pools: RegionPools,
    now: number,
    insightsOf: InsightsOf = noInsights,
  ): Promise<boolean> {
    const run = await this.run(runId);
    const i = run.regions.findIndex((r) => r.taskId === taskId);
    if (i < 0 || run.regions[i]!.taskStatus !== null) return false;
    // Guarded on the region still open: two instances snapshotting one task write once.
    await this.m.Run.updateOne(
      { _id: runId, [`regions.${i}.taskStatus`]: null },
      {
        $set: {
          [`regions.${i}.taskStatus`]: taskStatus,
          [`regions.${i}.cells`]: cells,
          [`regions.${i}.pools`]: pools,
        },
      },
    );
    return this.finishIfSettled(runId, now, insightsOf);
  }

  /**
   * A running run whose regions are all settled is finished (a task may finish
   * before its start does), with its insights, so that a finished run has
   * them from the first read; true for the one call that finished it.
   */
  async finishIfSettled(
    runId: string,
    now: number,
    insightsOf: InsightsOf = noInsights,
  ): Promise<boolean> {
    const run = await this.run(runId);
    if (run.status !== 'running' || !run.regions.every(isSettled)) return false;
    const insights = await insightsOf(run);
    const { modifiedCount } = await this.m.Run.updateOne(
      { _id: runId, status: 'running' },
      { $set: { status: 'finished', finishedAt: now, insights } },
    );
    return modifiedCount === 1;
  }

  /**
   * Adds a keyword group to a monitor, only if its keywords are still the ones
   * the caller read (`from`): null when another write changed them first.
   */
  async setKeywords(
    userId: number,
    monitorId: string,
    from: string,
    keywords: { monitorKeywords: string; keywords: string[] },
    updatedAt: number,
  ): Promise<MonitorDoc | null> {
    return this.m.Monitor.findOneAndUpdate(
      { _id: monitorId, userId, monitorKeywords: from },
      { $set: { ...keywords, updatedAt } },
      { returnDocument: 'after' },
    ).lean<MonitorDoc>();
  }

  async runs(monitorId: string, page: number, size: number): Promise<Page<RunDoc>> {
    return paged(this.m.Run, { monitorId }, { slot: -1, _id: 1 }, page, size);
  }
}

/** One page of a filtered, sorted collection, and the count of all that match. */
async function paged<T>(
  model: Model<T>,
  filter: Record<string, unknown>,
  sort: Record<string, 1 | -1>,
  page: number,
  size: number,
): Promise<Page<T>> {
  const [total, items] = await Promise.all([
    model.countDocuments(filter),
    model
      .find(filter)
      .sort(sort)
      .skip((page - 1) * size)
      .limit(size)
      .lean<T[]>(),
  ]);
  return { total, items };
}

/** A region is done when its task is final, or when it was refused and has none. */
export function isSettled(r: RunRegionDoc): boolean {
  return r.taskStatus !== null || r.error !== null;
}
