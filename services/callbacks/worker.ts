/**
 * Sends due deliveries of every kind: claims one due delivery at a time
 * (atomically, under a lease), builds and signs its body, sends it and records
 * the attempt with the verdict of the schedule. A task callback's body is the
 * task's result read at each attempt; other kinds send the body they were
 * queued with and name their kind in a header. Attempts whose instance died
 * are recorded as interrupted failures once their lease lapses, and the
 * schedule goes on.
 */
import { newToken } from '../shared/claim.js';
import type { Clock } from '../shared/clock.js';
import type { EvidenceStore } from '../shared/evidence.js';
import type { TaskResultView } from '../shared/task-views.js';
import type { AttemptResult, Sender } from './deliver.js';
import { subjectOf, type AttemptRecord, type DeliveryDoc } from './models.js';
import { EVENT_HEADER, TASK_DELIVERY } from '../shared/contracts/callbacks.js';
import { callbackBody } from './payload.js';
import { afterAttempt, type Verdict } from '../shared/webhooks/schedule.js';
import { webhookHeaders } from '../shared/webhooks/sign.js';
import type { DeliveryStore } from './store.js';

/** Deliveries one instance sends at once; more instances add more. */
const MAX_PARALLEL = 16;

export interface WorkerOptions {
  node: string;
  retryDelaysMs: readonly number[];
  leaseMs: number;
  /** Base of absolute screenshot URLs in callback bodies. */
  screenshotBase: string;
}

/** What a delivery reads of its task and its user, through their services' actions. */
export interface WorkerSources {
  /** The task's full result, or undefined when the task is no longer stored. */
  result(userId: number, taskId: string): Promise<TaskResultView | undefined>;
  webhookSecret(userId: number): Promise<string>;
}

interface Logger {
  warn(...args: unknown[]): void;
}

export class Worker {
  private readonly inFlight = new Set<Promise<void>>();
  private pumping = false;
  private stopping = false;

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly sources: WorkerSources,
    private readonly evidence: Pick<EvidenceStore, 'withEvidence'>,
    private readonly sender: Sender,
    private readonly clock: Clock,
    private readonly o: WorkerOptions,
    private readonly logger: Logger,
  ) {}

  /** Starts every due attempt there is room for; never runs twice at once. */
  async pump(): Promise<void> {
    if (this.pumping || this.stopping) return;
    this.pumping = true;
    try {
      await this.recordLapsed();
      while (this.inFlight.size < MAX_PARALLEL && !this.stopping) {
        const token = newToken();
        const now = this.clock.now();
        const doc = await this.deliveries.claim(now, token, this.o.node, this.o.leaseMs);
        if (!doc) break;
        const run: Promise<void> = this.attempt(doc, token)
          .catch((err: unknown) => this.logger.warn(`delivery ${doc._id}:`, err))
          .finally(() => this.inFlight.delete(run));
        this.inFlight.add(run);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Stops claiming, aborts attempts in flight and hands them back uncounted. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.sender.close();
    await Promise.allSettled([...this.inFlight]);
  }

  private async attempt(doc: DeliveryDoc, token: string): Promise<void> {
    const startedAt = this.clock.now();
    const result = await this.send(doc, startedAt);
    const endedAt = this.clock.now();
    if (result.aborted) {
      await this.deliveries.giveBack(doc._id, token, endedAt);
      return;
    }
    const verdict: Verdict = result.final
      ? { status: 'FAILED' }
      : afterAttempt(doc.attemptCount, result.ok, endedAt, this.o.retryDelaysMs);
    await this.deliveries.record(
      doc._id,
      token,
      record(doc.attemptCount, startedAt, result),
      verdict,
      endedAt,
    );
  }

  private async send(
    doc: DeliveryDoc,
    sentAt: number,
  ): Promise<AttemptResult & { final?: boolean }> {
    const { kind, subjectId } = subjectOf(doc);
    if (kind === TASK_DELIVERY) return this.sendTaskCallback(doc, subjectId, sentAt);
    const body = JSON.stringify(doc.body);
    const secret = await this.sources.webhookSecret(doc.userId);
    const headers = {
      ...webhookHeaders(secret, doc.webhookId, sentAt, body),
      [EVENT_HEADER]: kind,
    };
    return this.sender.send(doc.url, headers, body);
  }

  private async sendTaskCallback(
    doc: DeliveryDoc,
    taskId: string,
    sentAt: number,
  ): Promise<AttemptResult & { final?: boolean }> {
    const view = await this.sources.result(doc.userId, taskId);
    if (!view) {
      return {
        ok: false,
        httpStatus: null,
        latencyMs: 0,
        error: 'the task is no longer stored',
        response: null,
        aborted: false,
        final: true,
      };
    }
    const withEvidence = await this.evidence.withEvidence(view.subTaskList.map((s) => s.subTaskId));
    const body = callbackBody(view, doc.userId, sentAt, this.o.screenshotBase, withEvidence);
    const secret = await this.sources.webhookSecret(doc.userId);
    return this.sender.send(doc.url, webhookHeaders(secret, doc.webhookId, sentAt, body), body);
  }

  /** Attempts whose instance stopped before recording them count as failed, and the schedule goes on. */
  private async recordLapsed(): Promise<void> {
    const now = this.clock.now();
    for (const doc of await this.deliveries.lapsed(now)) {
      const attempt: AttemptRecord = {
        attempt: doc.attemptCount,
        at: (doc.leaseExpiresAt ?? now) - this.o.leaseMs,
        httpStatus: null,
        latencyMs: null,
        error: `interrupted: instance ${doc.leaseNode} stopped before the outcome was known`,
        response: null,
      };
      const verdict = afterAttempt(doc.attemptCount, false, now, this.o.retryDelaysMs);
      await this.deliveries.record(doc._id, doc.leaseToken!, attempt, verdict, now);
    }
  }
}

function record(attempt: number, at: number, r: AttemptResult): AttemptRecord {
  return {
    attempt,
    at,
    httpStatus: r.httpStatus,
    latencyMs: r.latencyMs,
    error: r.error,
    response: r.response,
  };
}
