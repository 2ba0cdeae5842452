/**
 * Status polls come many times a second for the same task, so an api node
 * keeps each task's serialised status answer and serves it as bytes: one
 * read and one serialisation per change instead of per poll.
 *
 * Freshness: the events that announce a change of a task (sub tasks settled,
 * task created or finished) drop its answer as soon as this node receives
 * them, and a read that began before such an event is never kept nor shared
 * with a poll that arrives after it. So an answer is never older than the
 * last change this node has heard of. Changes that no event announces (a
 * lease taken, counters mended, a task purged) show within `maxAgeMs`.
 *
 * An answer is keyed by task and kept with its owner's user id; a poll by
 * anyone else goes to the tasks service (which refuses it), never to the cache.
 *
 * Memory: an answer past `maxAgeMs` is never served again, so it is dropped
 * (a sweep at most once per `maxAgeMs`, when an answer is kept). Without that,
 * every task ever polled stayed until `maxBytes` was full: a finished task's
 * answer grew the api node's memory for hours (the soak measured it).
 */
import type { Clock } from '../shared/clock.js';

export interface StatusCacheOptions {
  /** How long an answer may be served without a new read. */
  maxAgeMs: number;
  /** Bytes of answers kept at most; the least recently used go first. */
  maxBytes: number;
  clock: Clock;
}

interface Entry {
  userId: number;
  body: Buffer;
  /** When the read that produced it began. */
  readAt: number;
}

interface Fill {
  userId: number;
  body: Promise<Buffer>;
  /** False once an event has made what it reads out of date. */
  current: boolean;
}

export class StatusCache {
  private readonly entries = new Map<string, Entry>();
  private readonly fills = new Map<string, Fill>();
  private bytes = 0;
  private sweptAt = -Infinity;

  constructor(private readonly o: StatusCacheOptions) {}

  /** The status answer of a task for a user: kept, joined with a read under way, or read now. */
  async get(taskId: string, userId: number, read: () => Promise<Buffer>): Promise<Buffer> {
    const entry = this.entries.get(taskId);
    if (entry && entry.userId === userId && this.o.clock.now() - entry.readAt < this.o.maxAgeMs) {
      // Re-insert to mark it most recently used (Map keeps insertion order).
      this.entries.delete(taskId);
      this.entries.set(taskId, entry);
      return entry.body;
    }
    const fill = this.fills.get(taskId);
    if (fill?.current && fill.userId === userId) return fill.body;
    return this.fill(taskId, userId, read);
  }

  /** The tasks changed: their answers are out of date, and so are reads under way. */
  invalidate(taskIds: Iterable<string>): void {
    for (const taskId of taskIds) {
      this.drop(taskId);
      const fill = this.fills.get(taskId);
      if (fill) {
        fill.current = false;
        this.fills.delete(taskId);
      }
    }
  }

  /** Answers kept now (for tests and figures). */
  get size(): number {
    return this.entries.size;
  }

  private async fill(taskId: string, userId: number, read: () => Promise<Buffer>) {
    const readAt = this.o.clock.now();
    const fill: Fill = { userId, body: read(), current: true };
    this.fills.set(taskId, fill);
    try {
      const body = await fill.body;
      if (fill.current) this.keep(taskId, { userId, body, readAt });
      return body;
    } finally {
      if (this.fills.get(taskId) === fill) this.fills.delete(taskId);
    }
  }

  private keep(taskId: string, entry: Entry): void {
    this.dropExpired();
    this.drop(taskId);
    if (entry.body.length > this.o.maxBytes) return;
    this.entries.set(taskId, entry);
    this.bytes += entry.body.length;
    for (const [oldest, e] of this.entries) {
      if (this.bytes <= this.o.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= e.body.length;
    }
  }

  /** Answers too old to be served; the whole map at most once per maxAgeMs, so amortised O(1). */
  private dropExpired(): void {
    const now = this.o.clock.now();
    if (now - this.sweptAt < this.o.maxAgeMs) return;
    this.sweptAt = now;
    for (const [taskId, e] of this.entries)
      if (now - e.readAt >= this.o.maxAgeMs) this.drop(taskId);
  }

  private drop(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    this.entries.delete(taskId);
    this.bytes -= entry.body.length;
  }
}
