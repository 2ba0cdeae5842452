/**
 * A task's insights, summed once when it becomes final and stored with it, so
 * that reads of the final task do not sum them again
 * (services/shared/brand/stored-insights.ts). Its sub tasks are all final and
 * counted then (a count follows its sub task's final write), so the sum is what
 * any later read would make; written only where none is stored yet, so a
 * second sum (a finish mended twice) writes the same thing or nothing.
 *
 * Off the finishing settle's path: reading every sub task of a large task takes
 * seconds on a loaded store (docs/benchmarks.md, bench:brand), longer than a
 * crawler node waits for its settle's answer. Until the write lands, and for
 * good if the process dies first, reads of the final task sum them as before.
 */
import type { KeywordGroup } from '../contracts/brand.js';
import { FINAL_TASK_STATUSES } from '../contracts/status.js';
import { toStored, type StoredInsights } from '../brand/stored-insights.js';
import { visibilityOf } from '../brand/visibility.js';
import type { TaskModels } from './models.js';
import { readVisibilityInputs } from './visibility-inputs.js';

/** The insights of the task's sub tasks as they are stored now. */
export async function sumInsights(
  m: Pick<TaskModels, 'SubTask'>,
  groups: readonly KeywordGroup[],
  taskId: string,
): Promise<StoredInsights> {
  return toStored(visibilityOf(groups, await readVisibilityInputs(m, taskId, { insights: true })));
}

export class FinalInsights {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly m: TaskModels,
    private readonly groupsOf: (taskId: string) => Promise<KeywordGroup[]>,
    /** Told of a sum or write that failed (the task's reads then sum them). */
    private readonly warn: (message: string, err: unknown) => void,
  ) {}

  /** Sums and stores a task's insights in the background, once it is final. */
  store(taskId: string): void {
    const done = this.write(taskId).catch((err: unknown) =>
      this.warn(`task ${taskId}: insights not stored (its reads sum them)`, err),
    );
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  /** Resolves once every store begun so far has ended. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending);
  }

  private async write(taskId: string): Promise<void> {
    const insights = await sumInsights(this.m, await this.groupsOf(taskId), taskId);
    await this.m.Task.updateOne(
      { _id: taskId, status: { $in: [...FINAL_TASK_STATUSES] }, insights: { $exists: false } },
      { $set: { insights } },
    );
  }
}
