/** MongoDB I/O for tasks and sub tasks. Every read is scoped to the owning user. */
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { SubTaskDoc, SubTaskSummaryDoc, TaskDoc, TaskModels, TaskStatus } from './models.js';
import { planSubTasks, planTask } from './plan.js';
import type { Submission } from './submission.js';
import { SummaryCache } from './summary-cache.js';
import type { ListQuery } from './queries.js';

export class TaskStore {
  private readonly summaries: SummaryCache;

  constructor(
    private readonly models: TaskModels,
    private readonly clock: Clock,
  ) {
    this.summaries = new SummaryCache({ now: () => clock.now() });
  }

  async ensureIndexes(): Promise<void> {
    await Promise.all([this.models.Task.createIndexes(), this.models.SubTask.createIndexes()]);
  }

  /**
   * The task document is the commit point: it is written first, flagged
   * `subtasksWritten: false`, then the sub tasks, then the flag. A crash in
   * between leaves a flagged task that `repairUnwritten` completes with the
   * same derived ids, so nothing is lost and nothing is doubled.
   */
  async create(taskId: string, userId: number, submission: Submission) {
    const task = planTask(taskId, userId, submission, this.clock.now());
    const subtasks = planSubTasks(task);
    await this.models.Task.collection.insertOne(task as never);
    try {
      await this.writeSubTasks(task, subtasks);
    } catch (err) {
      // The client gets an error, so the task must not run behind its back.
      await this.discard(taskId).catch(() => undefined);
      throw err;
    }
    return { task: { ...task, subtasksWritten: true }, subtasks };
  }

  private async writeSubTasks(task: TaskDoc, subtasks: SubTaskDoc[]): Promise<void> {
    try {
      await this.models.SubTask.collection.insertMany(subtasks as never[], { ordered: false });
    } catch (err) {
      // Duplicates are sub tasks an earlier, interrupted write already stored.
      if (!isOnlyDuplicateKeys(err)) throw err;
    }
    await this.models.Task.collection.updateOne(
      { _id: task._id as never },
      { $set: { subtasksWritten: true } },
    );
  }

  private async discard(taskId: string): Promise<void> {
    await this.models.SubTask.collection.deleteMany({ taskId });
    await this.models.Task.collection.deleteOne({ _id: taskId as never });
  }

  /** Completes submissions interrupted between the task and its sub tasks. */
  async repairUnwritten(olderThanMs: number): Promise<number> {
    const cutoff = this.clock.now() - olderThanMs;
    const stuck = await this.models.Task.find({
      subtasksWritten: false,
      createdAt: { $lt: cutoff },
    })
      .limit(100)
      .lean<TaskDoc[]>();
    for (const task of stuck) await this.writeSubTasks(task, planSubTasks(task));
    return stuck.length;
  }

  async findTask(userId: number, taskId: string): Promise<TaskDoc> {
    const task = await this.models.Task.findOne({ _id: taskId, userId }).lean<TaskDoc>();
    if (!task) throw AppError.notFound('task');
    return task;
  }

  async subTasksOf(taskId: string): Promise<SubTaskDoc[]> {
    return this.models.SubTask.find({ taskId }).sort({ seq: 1 }).lean<SubTaskDoc[]>();
  }

  /**
   * The status view's fields of a task's sub tasks, from the cache when the
   * task has not changed since; only these fields, as answers can be large.
   */
  async summariesOf(task: Pick<TaskDoc, '_id' | 'version'>): Promise<SubTaskSummaryDoc[]> {
    const version = task.version ?? 0;
    const cached = this.summaries.get(task._id, version);
    if (cached) return cached;
    const readAt = this.clock.now();
    const fresh = await this.readSummaries(task._id);
    this.summaries.set(task._id, version, fresh, readAt);
    return fresh;
  }

  private async readSummaries(taskId: string): Promise<SubTaskSummaryDoc[]> {
    return this.models.SubTask.find(
      { taskId },
      { prompt: 1, platform: 1, mode: 1, status: 1, seq: 1 },
    )
      .sort({ seq: 1 })
      .lean<SubTaskSummaryDoc[]>();
  }

  async findSubTask(userId: number, taskId: string, subTaskId: string): Promise<SubTaskDoc> {
    const sub = await this.models.SubTask.findOne({
      _id: subTaskId.toLowerCase(),
      taskId,
      userId,
    }).lean<SubTaskDoc>();
    if (!sub) throw AppError.notFound('sub task');
    return sub;
  }

  async list(userId: number, q: ListQuery): Promise<{ total: number; tasks: TaskDoc[] }> {
    const filter: { userId: number; status?: TaskStatus } = { userId };
    if (q.status) filter.status = q.status;
    const [total, tasks] = await Promise.all([
      this.models.Task.countDocuments(filter),
      this.models.Task.find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .skip((q.page - 1) * q.size)
        .limit(q.size)
        .lean<TaskDoc[]>(),
    ]);
    return { total, tasks };
  }

  /** Sub tasks of the user that have not reached a final state. */
  async unfinishedSubTasks(userId: number): Promise<number> {
    const open = await this.models.Task.find(
      { userId, status: { $in: ['pending', 'processing'] } },
      { totalItems: 1, completedItems: 1, failedItems: 1 },
    ).lean<Pick<TaskDoc, 'totalItems' | 'completedItems' | 'failedItems'>[]>();
    return open.reduce((sum, t) => sum + t.totalItems - t.completedItems - t.failedItems, 0);
  }
}

function isOnlyDuplicateKeys(err: unknown): boolean {
  const e = err as { code?: number; writeErrors?: { code?: number }[] };
  if (e?.code === 11000 && !e.writeErrors) return true;
  return Array.isArray(e?.writeErrors) && e.writeErrors.every((w) => w.code === 11000);
}
