/** MongoDB I/O of monitors and their runs; every write a run's start makes is guarded by its claim. */
import type { Model } from 'mongoose';
import { AppError } from '../shared/errors.js';
import type { MonitorInput } from '../shared/requests/monitor.js';
import {
  startClaims,
  type MonitorDoc,
  type MonitorModels,
  type RunDoc,
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

const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;

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

  /** Moves the next slot on, only from the value the caller saw (another node may have). */
  async advance(monitorId: string, from: number, to: number): Promise<void> {
    await this.m.Monitor.updateOne(
      { _id: monitorId, nextDueAt: from },
      { $set: { nextDueAt: to } },
    );
  }

  /** false: a run with this slot key exists already (another node created it). */
  async createRun(run: RunDoc): Promise<boolean> {
    try {
      await this.m.Run.collection.insertOne(run as never);
      return true;
    } catch (err) {
      if (isDuplicate(err)) return false;
      throw err;
    }
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
   * Marks a task of the run submitted (or refused with `error`) under the claim
   * `token`: `path` is `regions.<i>` for a region's own task,
   * `regions.<i>.followUps.<j>` for a follow-up. With `finish` (a region's own
   * task only), it was the start's last: in the same write the run runs (or
   * failed, all refused) and the claim is freed, one round trip less per run.
   * false: the claim was lost, so the caller stops.
   */
  async markSubmitted(
    runId: string,
    path: string,
    token: string,
    error: string | null,
    finish: { allRefused: boolean } | null,
  ): Promise<boolean> {
    const { modifiedCount } = await this.m.Run.updateOne(
      { _id: runId, ...startClaims.heldWith(token) },
      {
        $set: {
          [`${path}.submitted`]: true,
          [`${path}.error`]: error,
          ...(finish && {
            status: finish.allRefused ? 'failed' : 'running',
            ...startClaims.free(),
          }),
        },
      },
    );
    return modifiedCount === 1;
  }

  /** A start with every region marked already: the run runs (or failed, all refused), the claim freed. */
  async finishStart(runId: string, token: string, allRefused: boolean): Promise<void> {
    await this.m.Run.updateOne(
      { _id: runId, ...startClaims.heldWith(token) },
      { $set: { status: allRefused ? 'failed' : 'running', ...startClaims.free() } },
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
   * with its last region (then true).
   */
  async saveRegion(
    runId: string,
    taskId: string,
    taskStatus: TaskStatus,
    cells: CellSnapshot[],
    pools: RegionPools,
    now: number,
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
    return this.finishIfSettled(runId, now);
  }

  /**
   * A running run whose regions are all settled is finished (a task may finish
   * before its start does); true for the one call that finished it.
   */
  async finishIfSettled(runId: string, now: number): Promise<boolean> {
    const run = await this.run(runId);
    if (run.status !== 'running' || !run.regions.every(isSettled)) return false;
    const { modifiedCount } = await this.m.Run.updateOne(
      { _id: runId, status: 'running' },
      { $set: { status: 'finished', finishedAt: now } },
    );
    return modifiedCount === 1;
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
