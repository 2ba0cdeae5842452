/**
 * One delivery document per task with a callback (`_id` = taskId, so creating
 * it twice is impossible), holding its timer (`nextAttemptAt`), the lease of
 * the instance sending it, and every attempt made.
 */
import { Schema, type Connection, type Model } from 'mongoose';
import type { TaskStatus } from '../shared/contracts/status.js';
import type { DeliveryStatus } from '../shared/webhooks/schedule.js';

export interface AttemptRecord {
  attempt: number;
  /** When the attempt started. */
  at: number;
  httpStatus: number | null;
  latencyMs: number | null;
  error: string | null;
  /** The start of the receiver's answer, for diagnosis. */
  response: string | null;
}

export interface DeliveryDoc {
  _id: string;
  userId: number;
  url: string;
  webhookId: string;
  taskStatus: TaskStatus;
  status: DeliveryStatus;
  /** Attempts started, including one in flight. */
  attemptCount: number;
  nextAttemptAt: number | null;
  leaseToken: string | null;
  leaseNode: string | null;
  leaseExpiresAt: number | null;
  createdAt: number;
  finishedAt: number | null;
  attempts: AttemptRecord[];
}

const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: String,
    userId: { type: Number, required: true },
    url: String,
    webhookId: String,
    taskStatus: String,
    status: { type: String, required: true },
    attemptCount: Number,
    nextAttemptAt: { type: Number, default: null },
    leaseToken: { type: String, default: null },
    leaseNode: { type: String, default: null },
    leaseExpiresAt: { type: Number, default: null },
    createdAt: Number,
    finishedAt: { type: Number, default: null },
    attempts: [Schema.Types.Mixed],
  },
  { versionKey: false, collection: 'deliveries' },
);
deliverySchema.index({ status: 1, nextAttemptAt: 1 });
deliverySchema.index({ status: 1, leaseExpiresAt: 1 });

export function deliveryModel(connection: Connection): Model<DeliveryDoc> {
  return (
    (connection.models.Delivery as Model<DeliveryDoc>) ??
    connection.model<DeliveryDoc>('Delivery', deliverySchema)
  );
}
