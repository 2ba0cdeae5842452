/**
 * Sends the daily digests (docs/monitors.md): the leader checks once a minute
 * for monitors that are enabled, have `digest` on and a callbackUrl, and whose
 * latest 09:00 (due.ts) has no digest yet, and queues one `monitor.digest`
 * delivery for each through `callbacks.deliver`, which signs, sends and
 * retries it like a task callback. The delivery is keyed by monitor and local
 * date, so two nodes (a leader handing over mid-pass) queue a day's digest
 * once; `monitorDigests` remembers the last day sent per monitor, so a day is
 * not built again, and is written after the delivery is queued, so a pass cut
 * off in between queues it on the next pass.
 */
import { Schema, type Connection, type Model } from 'mongoose';
import type { DeliverRequest } from '../../shared/contracts/callbacks.js';
import type { MonitorDoc, MonitorModels } from '../models.js';
import {
  digestBody,
  DIGEST_MAX_CHANGES,
  DIGEST_WINDOW_MS,
  type DigestRun,
  type StoredChange,
} from './body.js';
import { isDigestDue, latestDigestDay, type DigestDay } from './due.js';

/** A digest is due at 09:00; a minute late is on time. */
const CHECK_MS = 60_000;

interface DigestStateDoc {
  /** The monitor's id. */
  _id: string;
  slot: number;
  day: string;
  sentAt: number;
  /** Why the delivery was refused (its address no longer allowed); null: queued. */
  error: string | null;
}

const stateSchema = new Schema<DigestStateDoc>(
  {
    _id: String,
    slot: Number,
    day: String,
    sentAt: Number,
    error: { type: String, default: null },
  },
  { versionKey: false, collection: 'monitorDigests' },
);

function stateModel(connection: Connection): Model<DigestStateDoc> {
  return (
    (connection.models.MonitorDigest as Model<DigestStateDoc>) ??
    connection.model('MonitorDigest', stateSchema)
  );
}

type DigestMonitor = Pick<
  MonitorDoc,
  '_id' | 'userId' | 'name' | 'schedule' | 'callbackUrl' | 'createdAt'
>;

export interface DigestDeps {
  connection: Connection;
  models: MonitorModels;
  deliver: (request: DeliverRequest) => Promise<unknown>;
  warn: (message: string, err: unknown) => void;
}

export class Digests {
  private readonly state: Model<DigestStateDoc>;
  private nextCheckAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: DigestDeps) {
    this.state = stateModel(deps.connection);
  }

  /** From the leader's tick (every second): a pass at most once a minute. */
  async onTick(now: number): Promise<void> {
    if (now < this.nextCheckAt) return;
    this.nextCheckAt = now + CHECK_MS;
    await this.pass(now);
  }

  /** Queues every digest due at `now`; returns how many. */
  async pass(now: number): Promise<number> {
    const monitors = await this.deps.models.Monitor.find(
      { enabled: true, digest: true, callbackUrl: { $ne: null } },
      { _id: 1, userId: 1, name: 1, schedule: 1, callbackUrl: 1, createdAt: 1 },
    ).lean<DigestMonitor[]>();
    if (monitors.length === 0) return 0;
    const states = await this.state
      .find({ _id: { $in: monitors.map((m) => m._id) } }, { slot: 1 })
      .lean<Pick<DigestStateDoc, '_id' | 'slot'>[]>();
    const lastSent = new Map(states.map((s) => [s._id, s.slot]));
    let queued = 0;
    for (const monitor of monitors) {
      const day = latestDigestDay(monitor.schedule, now);
      if (!isDigestDue(day, monitor.createdAt, lastSent.get(monitor._id))) continue;
      try {
        await this.send(monitor, day, now);
        queued++;
      } catch (err) {
        // Left due: the next pass tries again.
        this.deps.warn(`monitor ${monitor._id}: digest of ${day.day}:`, err);
      }
    }
    return queued;
  }

  private async send(monitor: DigestMonitor, day: DigestDay, now: number): Promise<void> {
    const window = { $gte: day.slot - DIGEST_WINDOW_MS, $lt: day.slot };
    const [runs, changes] = await Promise.all([
      this.deps.models.Run.find(
        {
          monitorId: monitor._id,
          // A run whose every region was refused fails without finishing: its start counts.
          $or: [{ finishedAt: window }, { status: 'failed', createdAt: window }],
        },
        { _id: 1, trigger: 1, slot: 1, status: 1, finishedAt: 1, regions: 1 },
      )
        .sort({ slot: 1, _id: 1 })
        .lean<DigestRun[]>(),
      // The collection of detected changes; a monitor without any reads as an empty list.
      this.deps.connection
        .collection('monitorChanges')
        .find({ monitorId: monitor._id, detectedAt: window })
        .sort({ detectedAt: 1, _id: 1 })
        .limit(DIGEST_MAX_CHANGES + 1)
        .toArray() as Promise<StoredChange[]>,
    ]);
    const error = await this.deps
      .deliver({
        kind: 'monitor.digest',
        subjectId: `${monitor._id}@${day.day}`,
        userId: monitor.userId,
        url: monitor.callbackUrl!,
        body: digestBody(monitor, day, runs, changes),
      })
      .then(
        () => null,
        (err: { code?: number; message?: string }) => {
          // Refused for good (the address is no longer allowed): recorded, not retried each minute.
          if (err.code === 400) return err.message ?? 'refused';
          throw err;
        },
      );
    await this.state.updateOne(
      { _id: monitor._id },
      { $set: { slot: day.slot, day: day.day, sentAt: now, error } },
      { upsert: true },
    );
  }
}
