/**
 * MongoDB I/O for deliveries. Every change is one atomic single-document
 * update: a claim moves a due delivery to SENDING under a fresh lease token,
 * and only the holder of that token can record the outcome, so two instances
 * never send the same attempt.
 */
import type { Model } from 'mongoose';
import { leases } from '../shared/claim.js';
import { TASK_DELIVERY } from '../shared/contracts/callbacks.js';
import type { TaskStatus } from '../shared/contracts/status.js';
import { deliveryId, type AttemptRecord, type DeliveryDoc } from './models.js';
import type { Verdict } from '../shared/webhooks/schedule.js';
import type { CallbackFigures } from '../shared/contracts/figures.js';
import { webhookIdFor } from '../shared/webhooks/sign.js';

const NO_LEASE = leases.free();

export interface NewDelivery {
  kind: string;
  subjectId: string;
  userId: number;
  url: string;
  taskStatus: TaskStatus | null;
  body: Record<string, unknown> | null;
}

export class DeliveryStore {
  constructor(private readonly model: Model<DeliveryDoc>) {}

  async ensureIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  /** Creates the delivery of a kind and subject, due at once; false when it already exists. */
  async create(d: NewDelivery, now: number): Promise<boolean> {
    const doc: DeliveryDoc = {
      _id: deliveryId(d.kind, d.subjectId),
      kind: d.kind,
      subjectId: d.subjectId,
      userId: d.userId,
      url: d.url,
      webhookId: webhookIdFor(d.kind, d.subjectId),
      taskStatus: d.taskStatus,
      body: d.body,
      status: 'PENDING',
      attemptCount: 0,
      nextAttemptAt: now,
      ...NO_LEASE,
      createdAt: now,
      finishedAt: null,
      attempts: [],
    };
    try {
      await this.model.collection.insertOne(doc as never);
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  /** Takes the most overdue delivery for one attempt; undefined when none is due. */
  async claim(now: number, token: string, node: string, leaseMs: number) {
    const doc = await this.model
      .findOneAndUpdate(
        { status: 'PENDING', nextAttemptAt: { $lte: now } },
        {
          $set: { status: 'SENDING', ...leases.take(token, node, now + leaseMs) },
          $inc: { attemptCount: 1 },
        },
        { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
      )
      .lean<DeliveryDoc>();
    return doc ?? undefined;
  }

  /** Records the outcome of the attempt held under `token`; false when the lease was lost. */
  async record(id: string, token: string, attempt: AttemptRecord, verdict: Verdict, now: number) {
    const res = await this.model.updateOne(
      { _id: id, status: 'SENDING', ...leases.heldWith(token) },
      {
        $set: {
          ...NO_LEASE,
          status: verdict.status,
          nextAttemptAt: verdict.status === 'PENDING' ? verdict.nextAttemptAt : null,
          finishedAt: verdict.status === 'PENDING' ? null : now,
        },
        $push: { attempts: attempt },
      },
    );
    return res.modifiedCount === 1;
  }

  /** Hands an attempt that never completed back, due at once and not counted. */
  async giveBack(id: string, token: string, now: number): Promise<boolean> {
    const res = await this.model.updateOne(
      { _id: id, status: 'SENDING', ...leases.heldWith(token) },
      { $set: { ...NO_LEASE, status: 'PENDING', nextAttemptAt: now }, $inc: { attemptCount: -1 } },
    );
    return res.modifiedCount === 1;
  }

  /** Attempts whose instance stopped answering before recording an outcome. */
  async lapsed(now: number): Promise<DeliveryDoc[]> {
    return this.model
      .find({ status: 'SENDING', ...leases.lapsed(now) }, { attempts: 0 })
      .lean<DeliveryDoc[]>();
  }

  async find(kind: string, subjectId: string): Promise<DeliveryDoc | undefined> {
    return (
      (await this.model.findById(deliveryId(kind, subjectId)).lean<DeliveryDoc>()) ?? undefined
    );
  }

  /**
   * Removes deliveries of other kinds than task callbacks that finished before
   * `cutoff`; a task's goes with its task (services/shared/subtasks/retention.ts).
   */
  async purgeFinished(cutoff: number): Promise<number> {
    const { deletedCount } = await this.model.deleteMany({
      kind: { $exists: true, $ne: TASK_DELIVERY },
      status: { $in: ['SUCCEEDED', 'FAILED'] },
      finishedAt: { $lt: cutoff },
    });
    return deletedCount;
  }

  /** Which of these tasks already have a delivery (a task callback's key is its task id). */
  async existing(taskIds: string[]): Promise<Set<string>> {
    const docs = await this.model
      .find({ _id: { $in: taskIds } }, { _id: 1 })
      .lean<{ _id: string }[]>();
    return new Set(docs.map((d) => d._id));
  }

  /** Attempts by outcome and deliveries by state, counted by the database (the api's /metrics). */
  async figures(): Promise<CallbackFigures> {
    const status = '$attempts.httpStatus';
    const [attempts, deliveries] = await Promise.all([
      this.model.aggregate<{ _id: string; n: number }>([
        { $unwind: '$attempts' },
        {
          $group: {
            _id: {
              $cond: [
                { $eq: [{ $ifNull: [status, null] }, null] },
                'network_error',
                {
                  $cond: [
                    { $and: [{ $gte: [status, 200] }, { $lt: [status, 300] }] },
                    'delivered',
                    'http_error',
                  ],
                },
              ],
            },
            n: { $sum: 1 },
          },
        },
      ]),
      this.model.aggregate<{ _id: string; n: number }>([
        { $group: { _id: '$status', n: { $sum: 1 } } },
      ]),
    ]);
    const byName = (a: { _id: string }, b: { _id: string }) => a._id.localeCompare(b._id);
    return {
      attempts: attempts.sort(byName).map((a) => ({ outcome: a._id, count: a.n })),
      deliveries: deliveries.sort(byName).map((d) => ({ status: d._id, count: d.n })),
    };
  }
}
