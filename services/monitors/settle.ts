/**
 * A region of a run once its tasks are final: its cells folded from the
 * region's own task and every follow-up (rounds.ts), then either the next
 * round of adaptive sampling, stored with its task ids and submitted under the
 * run's claim, or the region's figures stored for good: the final cells (all
 * rounds) and the pools trends read, computed from them. Called on
 * task.finished and by the leader's sweep; two callers for one region store
 * one round (store.addRound) and one snapshot (store.saveRegion).
 */
import { FINAL_TASK_STATUSES, type TaskStatus } from '../shared/contracts/status.js';
import { newTaskId } from '../shared/ids.js';
import type { MonitorDoc, RunDoc, RunRegionDoc } from './models.js';
import type { RunStarter } from './runs.js';
import type { ResultItem } from './snapshot.js';
import { cellNeeds, foldRegion, fullGrid, planRound } from './rounds.js';
import { isSettled, type InsightsOf, type MonitorStore } from './store.js';
import { targetWidthOf } from './figures/sampling.js';
import { poolRegion } from './trends/pooled.js';

export interface TaskRead {
  keywords: string[];
  items: ResultItem[];
}

export interface SettlerDeps {
  store: MonitorStore;
  starter: RunStarter;
  /** Every sub task of a task (tasks.exportPage, page by page). */
  readTask: (userId: number, taskId: string) => Promise<TaskRead>;
  statusOf: (taskId: string) => Promise<TaskStatus>;
  /** A run's insights, computed when its last region is stored, to finish it with them. */
  insightsOf: InsightsOf;
  /** The run finished with the region this settler stored (its changes are detected then). */
  finished: (run: RunDoc) => Promise<void>;
  now: () => number;
}

export class RegionSettler {
  constructor(private readonly deps: SettlerDeps) {}

  /** A task of the run is final (`status` known from its event); settles its region if it can. */
  async taskFinished(run: RunDoc, taskId: string, status: TaskStatus): Promise<void> {
    const index = run.regions.findIndex(
      (r) => r.taskId === taskId || r.followUps.some((f) => f.taskId === taskId),
    );
    if (index >= 0) await this.settle(run, index, new Map([[taskId, status]]));
  }

  /** Settles region `index` once all its submitted tasks are final; else nothing yet. */
  async settle(run: RunDoc, index: number, known = new Map<string, TaskStatus>()): Promise<void> {
    const region = run.regions[index]!;
    if (isSettled(region) || !region.submitted) return;
    // A round whose submission is under way is not final yet: the sweep comes back to it.
    if (region.followUps.some((f) => !f.submitted)) return;
    const live = region.followUps.filter((f) => f.error === null);
    const statuses = new Map(known);
    for (const taskId of [region.taskId, ...live.map((f) => f.taskId)]) {
      const status = statuses.get(taskId) ?? (await this.deps.statusOf(taskId));
      if (!FINAL_TASK_STATUSES.includes(status)) return;
      statuses.set(taskId, status);
    }
    const cells = await this.fold(run, region);
    // A refused round ends the region's sampling: the next would be refused too.
    const refused = region.followUps.some((f) => f.error !== null);
    const grids = refused ? [] : planRound(cellNeeds(cells, run.sampling), platformsOf(run));
    const now = this.deps.now();
    if (grids.length === 0) {
      const status = statuses.get(region.taskId)!;
      const pools = poolRegion(region.regionCode, cells, run.promptTags ?? []);
      const { store, insightsOf } = this.deps;
      if (await store.saveRegion(run._id, region.taskId, status, cells, pools, now, insightsOf)) {
        await this.deps.finished(run);
      }
      return;
    }
    const round = (region.followUps.at(-1)?.round ?? 0) + 1;
    const followUps = grids.map((grid) => ({
      ...grid,
      round,
      taskId: newTaskId(),
      submitted: false,
      error: null,
    }));
    if (await this.deps.store.addRound(run._id, index, region.followUps.length, followUps)) {
      await this.deps.starter.submitFollowUps(run._id, now);
    }
  }

  private async fold(run: RunDoc, region: RunRegionDoc) {
    const body = run.body as { prompts: string[]; platforms: MonitorDoc['platforms'] };
    const own = await this.deps.readTask(run.userId, region.taskId);
    const parts = [
      { grid: fullGrid(body.prompts.length, body.platforms.length, run.samples), items: own.items },
    ];
    for (const followUp of region.followUps) {
      if (followUp.error !== null) continue;
      parts.push({
        grid: followUp,
        items: (await this.deps.readTask(run.userId, followUp.taskId)).items,
      });
    }
    return foldRegion(
      {
        prompts: body.prompts.length,
        platforms: body.platforms,
        keywords: own.keywords,
        targetWidth: targetWidthOf(run.sampling),
      },
      parts,
    );
  }
}

const platformsOf = (run: RunDoc) => (run.body.platforms as unknown[]).length;
