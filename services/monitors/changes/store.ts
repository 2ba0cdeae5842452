/**
 * MongoDB I/O of trends and changes: a monitor's finished runs read with their
 * snapshots only, and the `monitorChanges` feed. A run's changes are detected
 * once: the run is marked first (guarded on not yet), and each change's `_id`
 * derives from the run and what changed, so a repeat stores nothing twice.
 */
import { createHash } from 'node:crypto';
import type { Change, ChangeKind, RunInsights } from '../../shared/contracts/monitor-trends.js';
import type { ChangeDoc, MonitorModels, RunDoc } from '../models.js';
import type { TrendGroupBy } from '../../shared/contracts/monitor-trends.js';
import type { RunFigures } from '../trends/runs.js';
import type { PooledRun } from '../trends/pooled.js';
import type { ChangeDraft } from './rules.js';

/** The fields trends and change detection read: the snapshots, not the task bodies. */
const FIGURES = {
  _id: 1,
  slot: 1,
  finishedAt: 1,
  promptTags: 1,
  'regions.regionCode': 1,
  'regions.cells': 1,
} as const;

interface Window {
  from: number | null;
  to: number | null;
}

function slotRange({ from, to }: Window): Record<string, number> | null {
  const range: Record<string, number> = {};
  if (from !== null) range.$gte = from;
  if (to !== null) range.$lte = to;
  return Object.keys(range).length > 0 ? range : null;
}

/** The stored id of a change: a run's change of one kind, scope, keyword and domain is one. */
export function changeId(runId: string, d: ChangeDraft): string {
  const key = JSON.stringify([runId, d.kind, d.scope, d.keyword, d.domain]);
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

export class ChangeStore {
  constructor(private readonly m: MonitorModels) {}

  /**
   * A monitor's finished runs in the window, oldest first (index monitorId,
   * slot), with only their pre-pooled entries for `groupBy` and the gap's.
   */
  async trendRuns(monitorId: string, window: Window, groupBy: TrendGroupBy): Promise<PooledRun[]> {
    const slot = slotRange(window);
    const docs = await this.m.Run.find({ monitorId, status: 'finished', ...(slot ? { slot } : {}) })
      .select({
        _id: 1,
        slot: 1,
        finishedAt: 1,
        [`regions.pools.groups.${groupBy}`]: 1,
        'regions.pools.gap': 1,
      })
      .sort({ slot: 1 })
      .lean<(Omit<PooledRun, 'runId'> & { _id: string })[]>();
    return docs.map(({ _id, ...run }) => ({ runId: _id, ...run }));
  }

  /** The insights of the monitor's newest finished run in the window that has them. */
  async latestInsights(monitorId: string, window: Window): Promise<RunInsights | null> {
    const slot = slotRange(window);
    const doc = await this.m.Run.findOne({
      monitorId,
      status: 'finished',
      ...(slot ? { slot } : {}),
      insights: { $ne: null },
    })
      .select({ _id: 1, slot: 1, insights: 1 })
      .sort({ slot: -1 })
      .lean<Pick<RunDoc, '_id' | 'slot' | 'insights'>>();
    if (!doc?.insights) return null;
    return { runId: doc._id, slot: doc.slot, ...doc.insights };
  }

  /** A monitor's finished runs with slots in the window with every cell, oldest first. */
  async finishedRuns(monitorId: string, window: Window): Promise<RunFigures[]> {
    const slot = slotRange(window);
    const docs = await this.m.Run.find({ monitorId, status: 'finished', ...(slot ? { slot } : {}) })
      .select(FIGURES)
      .sort({ slot: 1 })
      .lean<(Omit<RunFigures, 'runId'> & { _id: string })[]>();
    return docs.map(({ _id, ...run }) => ({
      runId: _id,
      ...run,
      promptTags: run.promptTags ?? [],
    }));
  }

  /** true for the one caller that marks the run: it detects the run's changes. */
  async claimDetection(runId: string, now: number): Promise<boolean> {
    const { modifiedCount } = await this.m.Run.updateOne(
      { _id: runId, status: 'finished', changesDetectedAt: null },
      { $set: { changesDetectedAt: now } },
    );
    return modifiedCount === 1;
  }

  /** Finished runs whose changes no node detected (it stopped in between). */
  async undetected(limit: number): Promise<Pick<RunDoc, '_id' | 'monitorId' | 'userId'>[]> {
    return this.m.Run.find({ status: 'finished', changesDetectedAt: null })
      .select({ _id: 1, monitorId: 1, userId: 1 })
      .limit(limit)
      .lean<Pick<RunDoc, '_id' | 'monitorId' | 'userId'>[]>();
  }

  async save(changes: Change[]): Promise<void> {
    if (changes.length === 0) return;
    const docs = changes.map(({ id, ...c }): ChangeDoc => ({ _id: id, ...c }));
    try {
      await this.m.Change.insertMany(docs, { ordered: false });
    } catch (err) {
      // Stored by an earlier detection: the same ids, nothing new.
      const writeErrors = (err as { writeErrors?: { code?: number; err?: { code?: number } }[] })
        .writeErrors;
      if (!writeErrors?.every((e) => (e.code ?? e.err?.code) === 11000)) throw err;
    }
  }

  /** Newest slot first; within a run, in a stable order. */
  async list(
    monitorId: string,
    query: Window & { limit: number; kind: ChangeKind | null },
  ): Promise<Change[]> {
    const slot = slotRange(query);
    const docs = await this.m.Change.find({
      monitorId,
      ...(slot ? { slot } : {}),
      ...(query.kind ? { kind: query.kind } : {}),
    })
      .sort({ slot: -1, _id: 1 })
      .limit(query.limit)
      .lean<ChangeDoc[]>();
    return docs.map(({ _id, ...c }) => ({ id: _id, ...c }));
  }
}
