/**
 * The active scheduler's queue of pending sub tasks, in fair order: users take
 * turns, then each user's tasks, and each task runs in sub task order.
 */
import type { QueueItem } from '../shared/contracts/events.js';

interface UserQueue {
  tasks: Map<string, QueueItem[]>;
  taskOrder: string[];
  nextTask: number;
}

export class FairQueue {
  private readonly users = new Map<number, UserQueue>();
  private userOrder: number[] = [];
  private nextUser = 0;
  private readonly ids = new Map<string, QueueItem>();
  private accountBound = 0;

  /** `needsAccount`: which items run as a web account (see accountBoundSize). */
  constructor(private readonly needsAccount: (item: QueueItem) => boolean = () => false) {}

  get size(): number {
    return this.ids.size;
  }

  /** Queued items that need an account: while there are none, a pass asks nothing of accounts. */
  get accountBoundSize(): number {
    return this.accountBound;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(item: QueueItem): void {
    if (this.ids.has(item.id)) return;
    this.ids.set(item.id, item);
    if (this.needsAccount(item)) this.accountBound += 1;
    let user = this.users.get(item.userId);
    if (!user) {
      user = { tasks: new Map(), taskOrder: [], nextTask: 0 };
      this.users.set(item.userId, user);
      this.userOrder.push(item.userId);
    }
    let items = user.tasks.get(item.taskId);
    if (!items) {
      items = [];
      user.tasks.set(item.taskId, items);
      user.taskOrder.push(item.taskId);
    }
    // Keep sub task order; retries usually land at the end, but seq decides.
    let at = items.length;
    while (at > 0 && items[at - 1]!.seq > item.seq) at--;
    items.splice(at, 0, item);
  }

  remove(id: string): QueueItem | undefined {
    const item = this.ids.get(id);
    if (!item) return undefined;
    this.ids.delete(id);
    if (this.needsAccount(item)) this.accountBound -= 1;
    const user = this.users.get(item.userId)!;
    const items = user.tasks.get(item.taskId)!;
    items.splice(items.indexOf(item), 1);
    if (items.length === 0) {
      user.tasks.delete(item.taskId);
      const t = user.taskOrder.indexOf(item.taskId);
      user.taskOrder.splice(t, 1);
      if (user.nextTask > t) user.nextTask--;
    }
    if (user.tasks.size === 0) {
      this.users.delete(item.userId);
      const u = this.userOrder.indexOf(item.userId);
      this.userOrder.splice(u, 1);
      if (this.nextUser > u) this.nextUser--;
    }
    return item;
  }

  /** Every queued item, in no particular order (for sweeps such as REGION_WAIT). */
  items(): IterableIterator<QueueItem> {
    return this.ids.values();
  }

  /** Removes and returns the next eligible item in fair order, or undefined. */
  take(now: number, eligible: (item: QueueItem) => boolean): QueueItem | undefined {
    const userCount = this.userOrder.length;
    for (let u = 0; u < userCount; u++) {
      const userIndex = (this.nextUser + u) % userCount;
      const user = this.users.get(this.userOrder[userIndex]!)!;
      const taskCount = user.taskOrder.length;
      for (let k = 0; k < taskCount; k++) {
        const taskIndex = (user.nextTask + k) % taskCount;
        const items = user.tasks.get(user.taskOrder[taskIndex]!)!;
        const item = items.find((i) => i.notBefore <= now && eligible(i));
        if (!item) continue;
        user.nextTask = taskIndex + 1;
        this.nextUser = userIndex + 1;
        this.remove(item.id);
        this.normaliseCursors();
        return item;
      }
    }
    return undefined;
  }

  private normaliseCursors(): void {
    if (this.userOrder.length > 0) this.nextUser %= this.userOrder.length;
    else this.nextUser = 0;
    for (const user of this.users.values()) {
      user.nextTask = user.taskOrder.length > 0 ? user.nextTask % user.taskOrder.length : 0;
    }
  }
}
