/**
 * The task events streams of one api node. Each stream follows one task; the
 * hub reads that task's status view when an event says it changed (sub tasks
 * leased or settled, the task finished: broadcasts every api node hears, from
 * any scheduler or tasks node) and at least every `refreshMs` for changes no
 * event announces. One read serves every stream of the task, and reads of the
 * same task never overlap: a change heard during a read triggers one more.
 * Streams per user are capped on this node.
 */
import type { Writable } from 'node:stream';
import { AppError } from '../../shared/errors.js';
import type { TaskStatusView } from '../../shared/contracts/task-progress.js';
import { ProgressTracker, type ProgressEvent } from './progress-tracker.js';
import { SSE_HEARTBEAT, sseFrame } from './sse-frame.js';

export interface ProgressHubOptions {
  /** The task's status view for its owner (throws as the status route does). */
  read: (taskId: string, userId: number) => Promise<TaskStatusView>;
  maxPerUser: number;
  heartbeatMs: number;
  refreshMs: number;
  warn: (message: string, err?: unknown) => void;
}

interface Stream {
  out: Writable;
  tracker: ProgressTracker;
  lastId: number;
  userId: number;
}

interface Watch {
  userId: number;
  streams: Set<Stream>;
  reading: boolean;
  /** A change was heard while reading: read once more after. */
  again: boolean;
}

export class ProgressHub {
  private readonly watches = new Map<string, Watch>();
  private readonly openPerUser = new Map<number, number>();
  private readonly timers: NodeJS.Timeout[];

  constructor(private readonly o: ProgressHubOptions) {
    this.timers = [
      setInterval(() => this.changed([...this.watches.keys()]), o.refreshMs),
      setInterval(() => this.heartbeat(), o.heartbeatMs),
    ];
    for (const t of this.timers) t.unref();
  }

  /**
   * Opens a stream of `taskId` for its owner: checks the cap and reads the
   * view first, so a refused or unknown task throws before any byte is sent.
   * Returns the events the stream starts with and `attach` to start it.
   */
  async open(taskId: string, userId: number, resumeAfter: number) {
    const open = this.openPerUser.get(userId) ?? 0;
    if (open >= this.o.maxPerUser) {
      throw AppError.rateLimited(
        `too many open event streams: at most ${this.o.maxPerUser} per user`,
        5,
        'TOO_MANY_STREAMS',
      );
    }
    // Counted before the read, so opens racing each other cannot pass the cap together.
    this.openPerUser.set(userId, open + 1);
    let view: TaskStatusView;
    try {
      view = await this.o.read(taskId, userId);
    } catch (err) {
      this.release(userId);
      throw err;
    }
    return {
      /** Starts writing to `out`; call `close` when the client goes. */
      attach: (out: Writable) => this.attach(view, userId, resumeAfter, out),
    };
  }

  /** Tasks that may have changed (ids as events carry them). */
  changed(taskIds: Iterable<string>): void {
    for (const taskId of new Set(taskIds)) {
      const watch = this.watches.get(taskId);
      if (watch) void this.refresh(taskId, watch);
    }
  }

  /** Ends every stream (the node stops). */
  close(): void {
    for (const t of this.timers) clearInterval(t);
    for (const watch of this.watches.values()) for (const s of watch.streams) s.out.end();
    this.watches.clear();
    this.openPerUser.clear();
  }

  get streamCount(): number {
    let n = 0;
    for (const w of this.watches.values()) n += w.streams.size;
    return n;
  }

  private attach(view: TaskStatusView, userId: number, resumeAfter: number, out: Writable) {
    const stream: Stream = { out, tracker: new ProgressTracker(), lastId: resumeAfter, userId };
    this.write(stream, stream.tracker.snapshot(view));
    if (stream.tracker.ended) {
      out.end();
      this.release(userId);
      return { close: () => undefined };
    }
    const taskId = view.taskId;
    let watch = this.watches.get(taskId);
    if (!watch) {
      watch = { userId, streams: new Set(), reading: false, again: false };
      this.watches.set(taskId, watch);
    }
    watch.streams.add(stream);
    // A change announced while the snapshot was being read found no stream to tell.
    void this.refresh(taskId, watch);
    let closed = false;
    return {
      close: () => {
        if (closed) return;
        closed = true;
        this.drop(taskId, stream);
      },
    };
  }

  private async refresh(taskId: string, watch: Watch): Promise<void> {
    if (watch.reading) {
      watch.again = true;
      return;
    }
    watch.reading = true;
    try {
      do {
        watch.again = false;
        let view: TaskStatusView;
        try {
          view = await this.o.read(taskId, watch.userId);
        } catch (err) {
          if ((err as { code?: unknown }).code === 404) this.endAll(taskId, watch);
          else this.o.warn(`events stream: reading task ${taskId} failed`, err);
          return;
        }
        for (const stream of [...watch.streams]) {
          this.write(stream, stream.tracker.next(view));
          if (stream.tracker.ended) {
            stream.out.end();
            this.drop(taskId, stream);
          }
        }
      } while (watch.again && watch.streams.size > 0);
    } finally {
      watch.reading = false;
    }
  }

  private write(stream: Stream, events: ProgressEvent[]): void {
    for (const e of events) stream.out.write(sseFrame(++stream.lastId, e.event, e.data));
  }

  private heartbeat(): void {
    for (const watch of this.watches.values())
      for (const s of watch.streams) s.out.write(SSE_HEARTBEAT);
  }

  /** The task is gone (purged): its streams end. */
  private endAll(taskId: string, watch: Watch): void {
    for (const s of [...watch.streams]) {
      s.out.end();
      this.drop(taskId, s);
    }
  }

  private drop(taskId: string, stream: Stream): void {
    const watch = this.watches.get(taskId);
    if (!watch?.streams.delete(stream)) return;
    if (watch.streams.size === 0) this.watches.delete(taskId);
    this.release(stream.userId);
  }

  private release(userId: number): void {
    const left = (this.openPerUser.get(userId) ?? 1) - 1;
    if (left > 0) this.openPerUser.set(userId, left);
    else this.openPerUser.delete(userId);
  }
}
