/**
 * Mends the counters of tasks that a crash may have left short. A settle
 * writes each sub task, then adds it to its task's counters: a tasks process
 * killed between the two writes leaves a final sub task that was never
 * counted, and its task would stay `processing` for ever. The tasks that may
 * be affected are known: every unfinished task when a tasks node starts (the
 * one before it may have died), and the task of every report that arrives
 * again for a sub task that is already final (the call that wrote it got no
 * answer). Those are the suspects. Each tick asks the ledger to mend some of
 * them; a suspect stays until the ledger says it is done, which it does once
 * all of the task's sub tasks are final and quiet and it has recounted them
 * and finished the task. So a task is final a few seconds after its last sub
 * task, instead of after the scheduler's periodic recount.
 */
import type { Mended } from '../shared/subtasks/ledger.js';
import type { Finished } from '../shared/contracts/events.js';

export interface MenderDeps {
  mend(taskId: string): Promise<Mended>;
  announce(finished: Finished): Promise<void>;
  warn(message: string, err: unknown): void;
  everyMs: number;
  /** Suspects looked at per tick, so a long list after a restart costs little at a time. */
  perTick: number;
}

export class CounterMender {
  private readonly suspects = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(private readonly d: MenderDeps) {}

  suspect(taskIds: Iterable<string>): void {
    for (const id of taskIds) this.suspects.add(id);
  }

  get size(): number {
    return this.suspects.size;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.d.everyMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** One round over up to `perTick` suspects, oldest first; never two rounds at once. */
  async tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = this.round().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async round(): Promise<void> {
    const batch = [...this.suspects].slice(0, this.d.perTick);
    for (const taskId of batch) {
      // Looked at again at the back of the line unless it is done.
      this.suspects.delete(taskId);
      try {
        const mended = await this.d.mend(taskId);
        if (mended.finished) await this.d.announce(mended.finished);
        if (!mended.done) this.suspects.add(taskId);
      } catch (err) {
        this.suspects.add(taskId);
        this.d.warn(`mending the counters of task ${taskId} failed:`, err);
      }
    }
  }
}
