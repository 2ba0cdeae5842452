/**
 * What the `callbacks` service asks of the owners of tasks and users: tasks
 * and users keep their own documents, and callbacks reads them through these
 * actions (`tasks.brief`, `tasks.finishedPage`, `tasks.result`,
 * `users.defaultCallbacks`, `users.webhookSecret`).
 */
import type { TaskStatus } from './status.js';

/** A task as a callback delivery needs it (`tasks.brief`, `tasks.finishedPage`). */
export interface TaskBrief {
  taskId: string;
  userId: number;
  callbackUrl: string | null;
  status: TaskStatus;
  completedAt: number | null;
}

/** `tasks.brief`: one task; with `userId` only the owner's (else 404), without any user's. */
export interface TaskBriefRequest {
  taskId: unknown;
  userId?: number;
}

/**
 * `tasks.finishedPage`: final tasks in completion order (then task id),
 * from `since`, or after the last one of the previous page.
 */
export interface FinishedPageRequest {
  since: number;
  after?: { completedAt: number; taskId: string };
  limit: number;
}

/** `users.defaultCallbacks`: the users among these that have a default address, as pairs. */
export interface DefaultCallbacksRequest {
  userIds: number[];
}
export type DefaultCallbacksAnswer = [userId: number, url: string][];

/** `users.webhookSecret`: the secret that signs a user's callbacks (made on first use). */
export interface WebhookSecretRequest {
  userId: number;
}
export interface WebhookSecretAnswer {
  secret: string;
}

/** The kind of a completion callback: its subject is the task (subjectId = taskId). */
export const TASK_DELIVERY = 'task';

/**
 * `callbacks.deliver`: queue a signed delivery of another kind (a monitor's
 * alert or digest), sent and retried like a task callback. One delivery per
 * kind and subject: asking again for the same pair queues nothing more.
 */
export interface DeliverRequest {
  kind: string;
  subjectId: string;
  userId: number;
  url: string;
  body: Record<string, unknown>;
}
export interface DeliverAnswer {
  kind: string;
  subjectId: string;
  /** false: this kind and subject had a delivery already. */
  created: boolean;
}

/** `callbacks.deliveryOf`: the delivery of one kind and subject, seen by its owner. */
export interface DeliveryOfRequest {
  userId: number;
  kind: unknown;
  subjectId: unknown;
}

/** Names the kind on every delivery that is not a task callback (whose headers are the spec's). */
export const EVENT_HEADER = 'x-aimon-event';
