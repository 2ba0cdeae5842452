/**
 * Turns finished tasks into deliveries. The `task.finished` event is the fast
 * path; because Moleculer events are fire-and-forget, a periodic sweep also
 * looks for finished tasks that have an address but no delivery (an instance
 * was down or crashed when the event fired). Creation is keyed by taskId, so
 * the two paths, and several instances, can never create two deliveries.
 */
import type { Clock } from '../shared/clock.js';
import {
  TASK_DELIVERY,
  type FinishedPageRequest,
  type TaskBrief,
} from '../shared/contracts/callbacks.js';
import { FINAL_TASK_STATUSES } from '../shared/contracts/status.js';
import type { DeliveryStore } from './store.js';

/** What intake reads of tasks and users, through their services' actions. */
export interface IntakeSources {
  /** A task, or undefined when it is gone. */
  task(taskId: string): Promise<TaskBrief | undefined>;
  finishedPage(request: FinishedPageRequest): Promise<TaskBrief[]>;
  /** The default callback address of each of these users that has one. */
  defaultCallbacks(userIds: number[]): Promise<Map<number, string>>;
}

/** How far back the first sweep after a start looks for missed tasks. */
const FIRST_SWEEP_LOOKBACK_MS = 24 * 3600_000;
/** Later sweeps overlap the previous one, for writes that became visible late and clock skew. */
const SWEEP_OVERLAP_MS = 5 * 60_000;
const SWEEP_PAGE = 500;

export class Intake {
  private sweptUntil: number | undefined;

  constructor(
    private readonly sources: IntakeSources,
    private readonly deliveries: DeliveryStore,
    private readonly clock: Clock,
  ) {}

  /** The task's callbackUrl, else the user's default address, else none (spec 6.1). */
  async addressOf(task: Pick<TaskBrief, 'userId' | 'callbackUrl'>): Promise<string | undefined> {
    if (task.callbackUrl) return task.callbackUrl;
    return (await this.sources.defaultCallbacks([task.userId])).get(task.userId);
  }

  /** From the event; true when this call created the delivery. */
  async fromEvent(taskId: string): Promise<boolean> {
    const task = await this.sources.task(taskId);
    if (!task || !FINAL_TASK_STATUSES.includes(task.status)) return false;
    const url = await this.addressOf(task);
    return url ? this.create(task, url) : false;
  }

  /** Creates the deliveries missed since the last sweep; returns how many. */
  async sweep(): Promise<number> {
    const startedAt = this.clock.now();
    const since = this.sweptUntil ?? startedAt - FIRST_SWEEP_LOOKBACK_MS;
    let created = 0;
    let after: FinishedPageRequest['after'];
    for (;;) {
      const page = await this.sources.finishedPage({ since, after, limit: SWEEP_PAGE });
      created += await this.createMissing(page);
      if (page.length < SWEEP_PAGE) break;
      const last = page[page.length - 1]!;
      after = { completedAt: last.completedAt ?? 0, taskId: last.taskId };
    }
    this.sweptUntil = startedAt - SWEEP_OVERLAP_MS;
    return created;
  }

  private async createMissing(tasks: TaskBrief[]): Promise<number> {
    if (tasks.length === 0) return 0;
    const existing = await this.deliveries.existing(tasks.map((t) => t.taskId));
    const missing = tasks.filter((t) => !existing.has(t.taskId));
    const defaults = await this.sources.defaultCallbacks([
      ...new Set(missing.filter((t) => !t.callbackUrl).map((t) => t.userId)),
    ]);
    let created = 0;
    for (const task of missing) {
      const url = task.callbackUrl ?? defaults.get(task.userId);
      if (url && (await this.create(task, url))) created += 1;
    }
    return created;
  }

  private create(task: TaskBrief, url: string): Promise<boolean> {
    return this.deliveries.create(
      {
        kind: TASK_DELIVERY,
        subjectId: task.taskId,
        userId: task.userId,
        url,
        taskStatus: task.status,
        body: null,
      },
      this.clock.now(),
    );
  }
}
