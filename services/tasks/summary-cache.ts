/**
 * Status polls read the same sub task summaries again and again. Every change
 * of a sub task bumps its task's `version`, so summaries cached under
 * (taskId, version) are never stale: a poll costs one read of the task
 * document by id. Least recently used entries go first once the cache holds
 * `maxSummaries` summaries in all.
 */
import type { SubTaskSummaryDoc } from './models.js';

interface Entry {
  version: number;
  summaries: SubTaskSummaryDoc[];
}

export class SummaryCache {
  private readonly entries = new Map<string, Entry>();
  private size = 0;

  constructor(private readonly maxSummaries = 200_000) {}

  get(taskId: string, version: number): SubTaskSummaryDoc[] | undefined {
    const entry = this.entries.get(taskId);
    if (!entry || entry.version !== version) return undefined;
    // Re-insert to mark it most recently used (Map keeps insertion order).
    this.entries.delete(taskId);
    this.entries.set(taskId, entry);
    return entry.summaries;
  }

  set(taskId: string, version: number, summaries: SubTaskSummaryDoc[]): void {
    this.delete(taskId);
    if (summaries.length > this.maxSummaries) return;
    this.entries.set(taskId, { version, summaries });
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
