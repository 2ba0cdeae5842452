/**
 * A task's progress as its events stream tells it (pure): the snapshot sets
 * every sub task, each `subtask` event moves one and the counters, `done`
 * ends it. A resumed stream starts with a fresh snapshot, which replaces all.
 */
import type { SseEvent } from '../../crawler/platforms/common/sse.js';

export interface SubTaskLine {
  subTaskId: string;
  prompt: string;
  platform: string;
  channel: string | null;
  mode: string;
  status: string;
}

/** `data` of the status route and of the stream's snapshot. */
export interface StatusView {
  taskId: string;
  status: string;
  message: string;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  createdAt: number;
  completedAt: number | null;
  subTaskList: SubTaskLine[];
}

interface Counters {
  status?: string;
  taskStatus?: string;
  totalItems: number;
  completedItems: number;
  failedItems: number;
}

export class TaskProgress {
  status = 'pending';
  total = 0;
  completed = 0;
  failed = 0;
  done = false;
  readonly subTasks = new Map<string, SubTaskLine>();

  constructor(readonly taskId: string) {}

  /** Sub tasks final, counted or not: the bar's position. */
  get settled(): number {
    return this.completed + this.failed;
  }

  /** Applies one event; true when it changed what the progress shows. */
  apply(event: SseEvent): boolean {
    if (event.event === 'snapshot') {
      const view = JSON.parse(event.data) as StatusView;
      this.subTasks.clear();
      for (const s of view.subTaskList) this.subTasks.set(s.subTaskId, { ...s });
      this.count(view, view.status);
      return true;
    }
    if (event.event === 'subtask') {
      const change = JSON.parse(event.data) as Counters & { subTaskId: string; status: string };
      const line = this.subTasks.get(change.subTaskId);
      if (line) line.status = change.status;
      this.count(change, change.taskStatus);
      return true;
    }
    if (event.event === 'done') {
      const done = JSON.parse(event.data) as Counters & { status: string };
      this.count(done, done.status);
      this.done = true;
      return true;
    }
    return false;
  }

  private count(c: Counters, status: string | undefined): void {
    if (status) this.status = status;
    this.total = c.totalItems;
    this.completed = c.completedItems;
    this.failed = c.failedItems;
  }
}

/** The plain progress line (stderr not a terminal): `3/6 sub tasks: 2 completed, 1 failed (processing)`. */
export function progressLine(p: TaskProgress): string {
  return `${p.settled}/${p.total} sub tasks: ${p.completed} completed, ${p.failed} failed (${p.status})`;
}
