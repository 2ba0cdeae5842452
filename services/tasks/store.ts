/** MongoDB I/O for tasks and sub tasks. Every read is scoped to the owning user. */
import { AppError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type {
  SubTaskDoc,
  SubTaskSummaryDoc,
  TaskDoc,
  TaskModels,
} from '../shared/subtasks/models.js';
import type { TaskStatus } from '../shared/contracts/status.js';
import { planSubTasks, planTask } from './plan.js';
import type { Submission } from '../shared/requests/submission.js';
import type { ListQuery } from '../shared/requests/task-queries.js';
import { taskFigures } from './figures.js';
import type { TaskFigures } from '../shared/contracts/figures.js';
import type { FinishedPageRequest, TaskBrief } from '../shared/contracts/callbacks.js';
import { FINAL_TASK_STATUSES } from '../shared/contracts/status.js';
import { readVisibilityInputs } from '../shared/subtasks/visibility-inputs.js';

const BRIEF_FIELDS = { userId: 1, callbackUrl: 1, status: 1, completedAt: 1 };

/** A task as a callback delivery needs it. */
export function briefOf(
  t: Pick<TaskDoc, '_id' | 'userId' | 'callbackUrl' | 'status' | 'completedAt'>,
): TaskBrief {
  return {
    taskId: t._id,
    userId: t.userId,
    callbackUrl: t.callbackUrl,
    status: t.status,
    completedAt: t.completedAt,
  };
}

const STATUS_FIELDS = {
  name: 1,
  status: 1,
  totalItems: 1,
  completedItems: 1,
  failedItems: 1,
  createdAt: 1,
  completedAt: 1,
  version: 1,
  subtasksWritten: 1,
} as const;

export class TaskStore {
  constructor(
    private readonly models: TaskModels,
    private readonly clock: Clock,
  ) {}

  async ensureIndexes(): Promise<void> {
    await Promise.all([this.models.Task.createIndexes(), this.models.SubTask.createIndexes()]);
  }

  /** The cluster's sub task figures for `/metrics` (figures.ts). */
  figures(): Promise<Omit<TaskFigures, 'webOutcomes'>> {
    return taskFigures(this.models);
  }

  /**
   * The task document is the commit point: it is written first, flagged
   * `subtasksWritten: false`, then the sub tasks, then the flag. A crash in
   * between leaves a flagged task that `repairUnwritten` completes with the
   * same derived ids, so nothing is lost and nothing is doubled; meanwhile
   * reads fill in the sub tasks not written yet from the same plan.
   */
  async create(
    taskId: string,
    userId: number,
    submission: Submission,
    options: { samples?: number; requestFingerprint?: string } = {},
  ) {
    const task = planTask(taskId, userId, submission, this.clock.now(), options.samples);
    if (options.requestFingerprint) task.requestFingerprint = options.requestFingerprint;
    const subtasks = planSubTasks(task);
    try {
      await this.models.Task.collection.insertOne(task as never);
    } catch (err) {
      // Only a caller that names the id can collide: a monitor run resubmitting after a crash,
      // or a submission retried with its Idempotency-Key.
      if ((err as { code?: number }).code === 11000) {
        throw new AppError(`task ${taskId} exists`, 409, 'CONFLICT');
      }
      throw err;
    }
    try {
      await this.writeSubTasks(task, subtasks);
    } catch (err) {
      // The client gets an error, so the task must not run behind its back. A keyed
      // submission stays: its client retries with the key and gets this task, which
      // repairUnwritten completes.
      if (!task.requestFingerprint) await this.discard(taskId).catch(() => undefined);
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

  /**
   * The task, or undefined (the first answer to a retried keyed submission).
   * `withInsights` adds the insights stored when it became final (left out of
   * every other read: see the schema), for a read of its visibility.
   */
  async taskIfAny(
    userId: number,
    taskId: string,
    { withInsights = false } = {},
  ): Promise<TaskDoc | undefined> {
    const query = this.models.Task.findOne({ _id: taskId, userId });
    if (withInsights) query.select('+insights');
    return (await query.lean<TaskDoc>()) ?? undefined;
  }

  async findTask(userId: number, taskId: string, options?: { withInsights?: boolean }) {
    const task = await this.taskIfAny(userId, taskId, options);
    if (!task) throw AppError.notFound('task');
    return task;
  }

  /** Any user's task: for operators only (callers check the role). */
  async findAnyTask(taskId: string): Promise<TaskDoc> {
    const task = await this.models.Task.findOne({ _id: taskId }).lean<TaskDoc>();
    if (!task) throw AppError.notFound('task');
    return task;
  }

  /**
   * The task as the status view needs it: counters and dates, not the
   * prompts and settings (the whole document only while its sub tasks are
   * being written, to fill them in from the plan). Polls read it often.
   */
  async findTaskStatus(userId: number, taskId: string): Promise<TaskDoc> {
    const task = await this.models.Task.findOne(
      { _id: taskId, userId },
      STATUS_FIELDS,
    ).lean<TaskDoc>();
    if (!task) throw AppError.notFound('task');
    return unwritten(task) ? this.findTask(userId, taskId) : task;
  }

  /**
   * Final tasks in completion order, then by id, from `since` or after the
   * previous page's last one (the callbacks sweep pages through them).
   */
  async finishedPage({ since, after, limit }: FinishedPageRequest): Promise<TaskBrief[]> {
    const tasks = await this.models.Task.find(
      {
        status: { $in: FINAL_TASK_STATUSES },
        ...(after
          ? {
              $or: [
                { completedAt: { $gt: after.completedAt } },
                { completedAt: after.completedAt, _id: { $gt: after.taskId } },
              ],
            }
          : { completedAt: { $gte: since } }),
      },
      BRIEF_FIELDS,
    )
      .sort({ completedAt: 1, _id: 1 })
      .limit(limit)
      .lean<TaskDoc[]>();
    return tasks.map(briefOf);
  }

  async subTasksOf(taskId: string): Promise<SubTaskDoc[]> {
    return this.models.SubTask.find({ taskId }).sort({ seq: 1 }).lean<SubTaskDoc[]>();
  }

  /** Every sub task of the task: planned ones stand in for those not written yet. */
  async resultsOf(task: TaskDoc): Promise<SubTaskDoc[]> {
    const stored = await this.subTasksOf(task._id);
    return unwritten(task) ? withPlanned(task, stored) : stored;
  }

  /**
   * One page of the task's sub tasks in `seq` order after `afterSeq` (an
   * export reads the task page by page, so no read holds the whole task).
   */
  async pageOf(task: TaskDoc, afterSeq: number, limit: number): Promise<SubTaskDoc[]> {
    if (unwritten(task)) {
      const all = await this.resultsOf(task);
      return all.filter((s) => s.seq > afterSeq).slice(0, limit) as SubTaskDoc[];
    }
    return this.models.SubTask.find({ taskId: task._id, seq: { $gt: afterSeq } })
      .sort({ seq: 1 })
      .limit(limit)
      .lean<SubTaskDoc[]>();
  }

  /**
   * A task's status fields and its sub tasks' summaries, read side by side;
   * only these fields, as answers can be large. The api keeps the answer
   * between changes (services/api/status-cache.ts), so every read is fresh.
   */
  async statusOf(
    userId: number,
    taskId: string,
  ): Promise<{ task: TaskDoc; summaries: SubTaskSummaryDoc[] }> {
    const [task, stored] = await Promise.all([
      this.findTaskStatus(userId, taskId),
      this.readSummaries(taskId),
    ]);
    return { task, summaries: unwritten(task) ? withPlanned(task, stored) : stored };
  }

  /**
   * What the visibility summary reads of each sub task (readVisibilityInputs);
   * `insights: false` for a task whose insights are stored with it.
   */
  async visibilityInputs(taskId: string, { insights = true } = {}): Promise<SubTaskDoc[]> {
    return readVisibilityInputs(this.models, taskId, { insights });
  }

  private async readSummaries(taskId: string): Promise<SubTaskSummaryDoc[]> {
    return this.models.SubTask.find(
      { taskId },
      { prompt: 1, platform: 1, channel: 1, mode: 1, status: 1, seq: 1 },
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
    if (sub) return sub;
    const task = await this.models.Task.findOne({ _id: taskId, userId }).lean<TaskDoc>();
    const planned =
      task && unwritten(task)
        ? planSubTasks(task).find((s) => s._id === subTaskId.toLowerCase())
        : undefined;
    if (!planned) throw AppError.notFound('sub task');
    return planned;
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

/** A task whose sub tasks are still being written (or whose write was interrupted). */
function unwritten(task: Pick<TaskDoc, 'subtasksWritten'>): boolean {
  return task.subtasksWritten === false;
}

/** The stored sub tasks, and the planned ones in place of those not written yet. */
function withPlanned<T extends { _id: string }>(task: TaskDoc, stored: T[]): (T | SubTaskDoc)[] {
  const byId = new Map(stored.map((s) => [s._id, s]));
  return planSubTasks(task).map((planned) => byId.get(planned._id) ?? planned);
}

function isOnlyDuplicateKeys(err: unknown): boolean {
  const e = err as { code?: number; writeErrors?: { code?: number }[] };
  if (e?.code === 11000 && !e.writeErrors) return true;
  return Array.isArray(e?.writeErrors) && e.writeErrors.every((w) => w.code === 11000);
}
