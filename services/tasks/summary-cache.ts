/**
 * Status polls read the same sub task summaries again and again. A change of
 * a sub task bumps its task's `version`, so summaries cached under
 * (taskId, version) are fresh while the version stands: a poll costs one read
 * of the task document by id.
 *
 * The bump is a second write after the sub task's own (there are no
 * transactions), and a process killed between the two never makes it: the
 * sub task changed, the version did not, and a cache trusting the version
 * alone kept serving the old list until some later change of the task (after
 * a crash, the recount, tens of seconds later). So an entry also expires after
 * `maxAgeMs`: a missed bump costs at most that much staleness, and under heavy
 * polling a task's summaries are still read at most once per `maxAgeMs`.
 *
 * Least recently used entries go first once the cache holds `maxSummaries`
 * summaries in all.
 */
import type { SubTaskSummaryDoc } from './models.js';

interface Entry {
  version: number;
  readAt: number;
  summaries: SubTaskSummaryDoc[];
}

export interface SummaryCacheOptions {
  maxSummaries?: number;
  maxAgeMs?: number;
  now?: () => number;
}

export class SummaryCache {
  private readonly entries = new Map<string, Entry>();
  private size = 0;
  private readonly maxSummaries: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(o: SummaryCacheOptions = {}) {
    this.maxSummaries = o.maxSummaries ?? 200_000;
    this.maxAgeMs = o.maxAgeMs ?? 1_000;
    this.now = o.now ?? Date.now;
  }

  get(taskId: string, version: number): SubTaskSummaryDoc[] | undefined {
    const entry = this.entries.get(taskId);
    if (!entry || entry.version !== version) return undefined;
    if (this.now() - entry.readAt >= this.maxAgeMs) {
      this.delete(taskId);
      return undefined;
    }
    // Re-insert to mark it most recently used (Map keeps insertion order).
    this.entries.delete(taskId);
    this.entries.set(taskId, entry);
    return entry.summaries;
  }

  /** `readAt`: when the summaries were read (before the read started, to err on the fresh side). */
  set(taskId: string, version: number, summaries: SubTaskSummaryDoc[], readAt = this.now()): void {
    this.delete(taskId);
    if (summaries.length > this.maxSummaries) return;
    this.entries.set(taskId, { version, readAt, summaries });
    this.size += summaries.length;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.maxSummaries) break;
      this.entries.delete(oldest);
      this.size -= entry.summaries.length;
    }
  }

  private delete(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    this.entries.delete(taskId);
    this.size -= entry.summaries.length;
  }
}
