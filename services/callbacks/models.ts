/**
 * One delivery document per kind and subject (a task's completion callback, a
 * monitor run's alert, a monitor's daily digest), keyed so that creating it
 * twice is impossible, holding its timer (`nextAttemptAt`), the lease of the
 * instance sending it, and every attempt made.
 */
import { Schema, type Connection, type Model } from 'mongoose';
import { TASK_DELIVERY } from '../shared/contracts/callbacks.js';
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
  /** See deliveryId. */
  _id: string;
  /** Absent on task callbacks stored before kinds existed: see subjectOf. */
  kind?: string;
  subjectId?: string;
  userId: number;
  url: string;
  webhookId: string;
  /** Task callbacks: the task's final status; null for other kinds. */
  taskStatus: TaskStatus | null;
  /** What other kinds send, fixed when queued; null for a task, whose body is read at each attempt. */
  body?: Record<string, unknown> | null;
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
    kind: String,
    subjectId: String,
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
    body: { type: Schema.Types.Mixed, default: null },
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

/**
 * The key of a delivery. A task callback's is its task id, as it always was,
 * so the retention purge, the intake's existence check and the records stored
 * before kinds existed keep working; other kinds prefix theirs with the kind.
 */
export function deliveryId(kind: string, subjectId: string): string {
  return kind === TASK_DELIVERY ? subjectId : `${kind}:${subjectId}`;
}

/**
 * The kind and subject of a stored delivery. Records written before kinds
 * existed carry neither; they are all task callbacks keyed by their task id,
 * so they are read as such rather than rewritten by a migration.
 */
export function subjectOf(d: Pick<DeliveryDoc, '_id' | 'kind' | 'subjectId'>): {
  kind: string;
  subjectId: string;
} {
  return { kind: d.kind ?? TASK_DELIVERY, subjectId: d.subjectId ?? d._id };
}
