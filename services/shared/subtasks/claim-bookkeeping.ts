/**
 * The task-side bookkeeping of claims, coalesced. A claim moves its task from
 * pending to processing (once) and bumps the task's `version`, so cached status
 * views notice the sub task that started. Done per claim, that is one or two
 * writes of the task document for every sub task, and a dispatch pass claims
 * dozens of sub tasks of the same task at once; so claims only mark their task
 * here, and one bulk write per window does the bookkeeping of every marked
 * task. A status view can lag a claim by at most the window. Completions and
 * failures do not go through here: they bump `version` with their counters.
 */
import type { TaskModels } from './models.js';

/** Tasks remembered as started; past this many the memory starts over (it is only a shortcut). */
const REMEMBERED = 10_000;

export class ClaimBookkeeping {
  private readonly marked = new Set<string>();
  /** Tasks known to have left `pending`, whose bookkeeping is a plain version bump. */
  private readonly started = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly m: TaskModels,
    private readonly windowMs: number,
  ) {}

  /** Marks a task whose sub task was just claimed. */
  mark(taskId: string): void {
    this.marked.add(taskId);
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.windowMs);
    // A pending window must not keep a finished process alive; stop() flushes it.
    this.timer.unref();
  }

  /** Writes the bookkeeping of every marked task now (also on stop). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const taskIds = [...this.marked];
    this.marked.clear();
    // One flush at a time, so a slow write is never overtaken by the next window's.
    this.writing = this.writing.then(() => this.write(taskIds)).catch(() => undefined);
    await this.writing;
  }

  private async write(taskIds: string[]): Promise<void> {
    if (taskIds.length === 0) return;
    const fresh = taskIds.filter((id) => !this.started.has(id));
    const known = taskIds.filter((id) => this.started.has(id));
    // A task seen for the first time may still be pending: start it, bumping
    // its version in the same write; if it had already started, bump only.
    const starts = await Promise.all(
      fresh.map((id) =>
        this.m.Task.updateOne(
          { _id: id, status: 'pending' },
          { $set: { status: 'processing' }, $inc: { version: 1 } },
        ),
      ),
    );
    fresh.forEach((id, i) => {
      if (starts[i]!.modifiedCount === 0) known.push(id);
      this.remember(id);
    });
    if (known.length === 0) return;
    await this.m.Task.bulkWrite(
      known.map((id) => ({ updateOne: { filter: { _id: id }, update: { $inc: { version: 1 } } } })),
      { ordered: false },
    );
  }

  private remember(taskId: string): void {
    if (this.started.size >= REMEMBERED) this.started.clear();
    this.started.add(taskId);
  }
}
