/**
 * Each task's keyword groups for the answer's hot path: read once per task
 * and kept (a task's keywords never change), so recording an answer needs no
 * extra read. The oldest tasks are forgotten past `max`.
 */
import type { KeywordGroup } from '../contracts/brand.js';
import { keywordGroups } from '../brand/groups.js';

export class TaskGroups {
  private readonly known = new Map<string, Promise<KeywordGroup[]>>();

  constructor(
    /** The task's keyword entries; null when there is no such task. */
    private readonly read: (taskId: string) => Promise<string[] | null>,
    private readonly max = 10_000,
  ) {}

  of(taskId: string): Promise<KeywordGroup[]> {
    let groups = this.known.get(taskId);
    if (!groups) {
      groups = this.read(taskId).then((entries) => keywordGroups(entries ?? []));
      // A failed read is not kept: the next answer of the task reads again.
      groups.catch(() => this.known.delete(taskId));
      this.known.set(taskId, groups);
      if (this.known.size > this.max) this.known.delete(this.known.keys().next().value!);
    }
    return groups;
  }
}
