/**
 * The soak's client, as a customer's script would use the api: a batch every
 * few seconds (API sub tasks on `sandbox`, a few web sub tasks on
 * `sandbox-web` with a screenshot, each task with a callback URL on the local
 * receiver), then its status polled every couple of seconds until final and
 * its result read once. Status round trips are timed.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from '../common.js';
import { PATHS } from '../../services/shared/contracts/http-paths.js';
import type { Receiver } from '../webhook-receiver.js';

/** Final statuses of a task (services/shared/contracts). */
const FINAL = new Set(['completed', 'partial_completed', 'failed']);
const POLL_MS = 2_000;
/** One task in this many has its first callback delivery refused (500), to exercise the retries. */
const REFUSE_FIRST_EVERY = 8;
const SUBMIT_PATIENCE_MS = 300_000;

export interface Submitted {
  taskId: string;
  tag: string;
  items: number;
  /** The receiver path its callback goes to. */
  callbackPath: string;
  /** Its first delivery is refused on purpose. */
  refusedFirst: boolean;
}

export interface ClientFigures {
  submitted: Submitted[];
  /** Status round trips, ms. */
  statusMs: number[];
  /** Tasks the poller saw final (and read the result of). */
  seenFinal: Set<string>;
  /** Requests that failed (status, reason), at most 20 kept. */
  errors: string[];
  /** Submits tried again after the api was unavailable. */
  submitRetries: number;
}

export class SoakClient {
  readonly figures: ClientFigures = {
    submitted: [],
    statusMs: [],
    seenFinal: new Set(),
    errors: [],
    submitRetries: 0,
  };
  private readonly polls: Promise<void>[] = [];
  private batches = 0;

  constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly receiver: Receiver,
    private readonly batch: { apiPrompts: number; webPrompts: number },
  ) {}

  /** Submits one batch (an API task and a web task) and starts polling both. */
  async submitBatch(): Promise<void> {
    const k = ++this.batches;
    const tasks = [
      {
        tag: `b${k}a`,
        n: this.batch.apiPrompts,
        platform: { platform: 'sandbox', mode: 'search' },
      },
      {
        tag: `b${k}w`,
        n: this.batch.webPrompts,
        platform: { platform: 'sandbox-web', mode: 'standard', screenshot: 1 },
      },
    ].filter((x) => x.n > 0);
    for (const x of tasks) {
      const callbackPath = `/${x.tag}`;
      const refusedFirst = this.figures.submitted.length % REFUSE_FIRST_EVERY === 0;
      const body = {
        monitorKeywords: 'Acme',
        prompts: Array.from({ length: x.n }, (_, i) => `soak ${x.tag} q${i}: which CRM fits?`),
        platforms: [x.platform],
        callbackUrl: this.receiver.plan(callbackPath, refusedFirst ? ['500'] : []),
      };
      const res = await this.submitWithRetries(x.tag, body);
      const taskId = res.body.data.taskId as string;
      this.figures.submitted.push({ taskId, tag: x.tag, items: x.n, callbackPath, refusedFirst });
      this.polls.push(this.poll(taskId));
    }
  }

  /**
   * A client tries again when the api is unavailable (503, a timeout, a refused
   * connection), for up to SUBMIT_PATIENCE_MS: the soak counts the retries and
   * goes on. Every try of a batch carries the batch's Idempotency-Key, so a
   * retry whose first try was taken after all gets that task, not a second one
   * (which would answer every prompt twice and call back twice).
   */
  private async submitWithRetries(tag: string, body: unknown) {
    const deadline = Date.now() + SUBMIT_PATIENCE_MS;
    const key = { 'Idempotency-Key': `soak-${randomUUID()}-${tag}` };
    for (;;) {
      const res = await this.call('POST', PATHS.TASK_SUBMIT, body, key);
      if (res?.status === 200) return res;
      const unavailable = res === undefined || res.status === 503 || res.status === 504;
      if (!unavailable || Date.now() > deadline) throw new Error(`submit ${tag}: ${res?.status}`);
      this.figures.submitRetries++;
      await sleep(2_000);
    }
  }

  /** Until every polled task is final, or the deadline. */
  async settle(deadline: number): Promise<void> {
    this.deadline = deadline;
    await Promise.all(this.polls);
  }

  private deadline = Infinity;

  private async poll(taskId: string): Promise<void> {
    const statusPath = PATHS.TASK_STATUS.replace(':taskId', taskId);
    while (Date.now() < this.deadline) {
      await sleep(POLL_MS);
      const t0 = performance.now();
      const res = await this.call('GET', statusPath);
      if (res?.status !== 200) continue;
      this.figures.statusMs.push(performance.now() - t0);
      if (!FINAL.has(res.body.data.status as string)) continue;
      // A result read refused (429 when the polls outrun the rate limit, 503) is tried again at
      // the next turn, as a client would: the task is seen final once its result is read.
      const result = await this.call('GET', PATHS.TASK_RESULT.replace(':taskId', taskId));
      if (result?.status !== 200) continue;
      this.figures.seenFinal.add(taskId);
      return;
    }
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) {
    try {
      const res = await request(this.base, method, path, this.token, body, headers);
      if (res.status !== 200) this.error(`${method} ${path}: ${res.status}`);
      return res;
    } catch (err) {
      this.error(`${method} ${path}: ${(err as Error).message}`);
      return undefined;
    }
  }

  private error(what: string): void {
    if (this.figures.errors.length < 20) this.figures.errors.push(what);
  }
}
