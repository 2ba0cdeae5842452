/**
 * Runs the leases a crawler node accepted: the platform's driver on the
 * leased channel (the web channel through web/web-attempt.ts: the account,
 * the evidence), the screenshot when one was asked for, renewal of the
 * leases (all together, see Renewals), a deadline, and one report of the
 * outcome. A lease that is lost (renewal refused) stops the work and reports
 * nothing: the sub task already belongs to someone else. A node that stops
 * drains: it takes no more leases and hands back what it will not finish,
 * without using up an attempt.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { AcceptAnswer, LeaseMessage } from '../services/shared/contracts/lease.js';
import type { Failure } from '../services/shared/contracts/status.js';
import { apiAttempt } from './api-attempt.js';
import { findPlatform, type Channel } from '../services/shared/platforms.js';
import type { BrowserRunner } from './browser.js';
import type { KeptPages } from './web/kept-pages.js';
import type { RenderServer } from './render-server.js';
import type { ChosenPort, ProxyPool } from './proxy-pool.js';
import { Renewals } from './renewals.js';
import { releaseUnused, WebAttempt, type AccountsClient } from './web/web-attempt.js';
import {
  PlatformError,
  type Job,
  type PlatformDriver,
  type PlatformSettings,
} from './platforms/types.js';
import type { CompletedResult, WebAttemptFacts } from '../services/shared/contracts/report.js';

export interface Outcome {
  result?: CompletedResult;
  failure?: Failure;
  /** Exit address of the proxy port used; null when the work went direct. */
  proxyIp: string | null;
  /** Which port (`host:port`), so a retry can avoid it. */
  proxyKey: string | null;
  /** Web channel: the account that ran the attempt. */
  accountId?: string | null;
  /** How long the attempt took, from its start to its answer or failure (the answer time figures). */
  answerMs?: number;
  /** When the attempt started, epoch ms on this node's clock (the evidence's start time). */
  startedAt?: number;
  web?: WebAttemptFacts;
}

export interface ExecutorDeps {
  capacity: number;
  /** Leases held beyond the capacity, started in arrival order as slots free. */
  prefetch: number;
  driverFor(platform: string): PlatformDriver | undefined;
  /** Settings of the (platform, channel) pair; undefined: this node cannot run it. */
  settingsFor(platform: string, channel: Channel): PlatformSettings | undefined;
  /** This node's regional proxy ports. */
  proxies: ProxyPool;
  /** fetch through the port (direct when null). */
  fetchVia(port: ChosenPort | null): typeof fetch;
  /** An attempt through the port failed: check the port again now. */
  portFailed(key: string): void;
  browser: BrowserRunner;
  /** Each account's page kept between its sub tasks (web/kept-pages.ts). */
  keptPages: KeptPages;
  render: RenderServer;
  /** Stores a PNG and returns its public URL. */
  saveScreenshot(png: Buffer, subTaskId: string): Promise<string>;
  /** Web channel: the `accounts` service (checkout and release of the lease's account). */
  accounts: AccountsClient;
  /** Web channel: stores an attempt's raw evidence (NDJSON) and returns its id. */
  saveEvidence(ndjson: string, subTaskId: string): Promise<string>;
  /** Extends the leases together; per lease, in order, false when it is gone. */
  renew(leases: LeaseMessage[]): Promise<boolean[]>;
  report(lease: LeaseMessage, outcome: Outcome): Promise<void>;
  /** Hands back a lease this node will not finish, without using up an attempt. */
  release(lease: LeaseMessage): Promise<void>;
  log: { warn(...args: unknown[]): void };
}

class LeaseLost extends Error {}
/** The node is stopping and gives the lease back (uncharged) instead of reporting it. */
class HandedBack extends Error {}

/** A lease this node holds, running or waiting for a slot. */
interface Held {
  lease: LeaseMessage;
  driver: PlatformDriver;
  settings: PlatformSettings;
  port: ChosenPort | null;
  controller: AbortController;
}

/** A lease is its sub task plus its token (one token serves a whole dispatch pass). */
const heldKey = (lease: LeaseMessage) => `${lease.subTaskId} ${lease.token}`;

export class Executor {
  private readonly held = new Map<string, Held>();
  private readonly waiting: Held[] = [];
  /** Reports and hand-backs on their way, so that stopping waits for them. */
  private readonly outgoing = new Set<Promise<void>>();
  private readonly renewals: Renewals<LeaseMessage>;
  /** Called when nothing runs any more. */
  private idleWaiters: (() => void)[] = [];
  private runningCount = 0;
  private drainingSince: number | undefined;

  constructor(private readonly d: ExecutorDeps) {
    this.renewals = new Renewals((leases) => d.renew(leases), d.log.warn.bind(d.log));
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  get running(): number {
    return this.runningCount;
  }

  get queued(): number {
    return this.waiting.length;
  }

  accept(lease: LeaseMessage): AcceptAnswer['results'][number] {
    if (this.held.has(heldKey(lease))) return { accepted: true };
    if (this.draining) return { accepted: false, reason: 'the node is draining (stopping)' };
    if (this.held.size >= this.d.capacity + this.d.prefetch)
      return {
        accepted: false,
        reason: `at capacity (${this.d.capacity} running, ${this.d.prefetch} waiting)`,
      };
    const driver = this.d.driverFor(lease.platform);
    const channel = driver?.[lease.channel];
    const settings = this.d.settingsFor(lease.platform, lease.channel);
    if (!driver || !channel || !settings) {
      return {
        accepted: false,
        reason: `no ${lease.channel} driver for ${lease.platform} on this node`,
        cannotRun: true,
      };
    }
    const port = this.portFor(lease);
    if (typeof port === 'string') return { accepted: false, reason: port };
    const controller = new AbortController();
    // Renewed from the moment it is held: a waiting lease must not expire either.
    this.renewals.add(lease, () => controller.abort(new LeaseLost('lease lost')));
    const h: Held = { lease, driver, settings, port, controller };
    this.held.set(heldKey(lease), h);
    controller.signal.addEventListener('abort', () => {
      // A waiting lease that is lost or stopped just leaves the queue.
      const at = this.waiting.indexOf(h);
      if (at >= 0) {
        this.waiting.splice(at, 1);
        this.forget(h);
        this.releaseUnusedAccount(h.lease);
      }
    });
    this.waiting.push(h);
    this.startWaiting();
    return { accepted: true };
  }

  /**
   * The port a lease goes through, or why it cannot run here now. An account
   * always uses its pinned port (none: direct); the scheduler places the lease
   * on the node that serves it, so a missing or inactive one is a refusal that
   * another pass may place elsewhere.
   */
  private portFor(lease: LeaseMessage): ChosenPort | null | string {
    // A platform that does not serve mainland China never goes through a (mainland) region port,
    // an account's or any: it leaves from the node's own egress, placed where it reaches it.
    if (findPlatform(lease.platform)?.serves === 'outside-mainland') return null;
    const pinned = lease.account?.proxyKey;
    if (lease.account && pinned === null) return null;
    if (pinned) {
      const port = this.d.proxies.byKey(pinned);
      if (port === undefined) return `the account's proxy port ${pinned} is not on this node`;
      if (port === 'inactive') return `the account's proxy port ${pinned} is inactive`;
      return port;
    }
    const port = this.d.proxies.pick(lease.regionCode, lease.avoidProxy ?? null);
    return port === undefined ? `no active proxy port for region ${lease.regionCode}` : port;
  }

  /**
   * A graceful stop. Takes no more leases and hands the waiting ones back at
   * once; lets the running ones finish and report until `deadlineMs`. Then API
   * work still running is handed back, while web work finishes its answer (a
   * browser answer cut off is wasted on the account; its own deadline bounds
   * it). Once `now` is aborted, everything left is handed back at once. No
   * hand-back uses up an attempt. Resolves when every outcome is reported or
   * handed back.
   */
  async drain(deadlineMs: number, now: AbortSignal): Promise<void> {
    this.drainingSince ??= Date.now();
    for (const h of this.waiting.splice(0)) this.handBack(h);
    await this.untilIdle(now, this.drainingSince + deadlineMs - Date.now());
    this.abortRunning((h) => h.lease.channel !== 'web');
    await this.untilIdle(now);
    this.abortRunning(() => true);
    await this.untilIdle();
    await Promise.all(this.outgoing);
  }

  /** Takes no more leases from now on (the node is stopping); what it holds runs on. */
  refuseNew(): void {
    this.drainingSince ??= Date.now();
  }

  /** Stops at once: every lease held goes back uncharged. */
  async stop(): Promise<void> {
    await this.drain(0, AbortSignal.abort());
    this.renewals.stop();
  }

  private abortRunning(which: (h: Held) => boolean): void {
    for (const h of this.held.values())
      if (which(h)) h.controller.abort(new HandedBack('crawler node stopping'));
  }

  /**
   * Resolves when nothing runs, when `stop` is aborted or after `timeoutMs`,
   * whichever is first. (Plain listeners and a timer: a signal combined with
   * AbortSignal.any can be collected before it fires.)
   */
  private untilIdle(stop?: AbortSignal, timeoutMs?: number): Promise<void> {
    if (this.runningCount === 0 || stop?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop?.removeEventListener('abort', done);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(done, Math.max(0, timeoutMs));
      stop?.addEventListener('abort', done, { once: true });
      this.idleWaiters.push(done);
    });
  }

  /**
   * A lease this node will not run (or finish): back to pending, uncharged.
   * One that never started gives its account back too (one that ran released
   * it on finishing).
   */
  private handBack(h: Held, started = false): Promise<void> {
    this.forget(h);
    if (!started) this.releaseUnusedAccount(h.lease);
    return this.send(`handing back ${h.lease.subTaskId}`, () => this.d.release(h.lease));
  }

  private releaseUnusedAccount(lease: LeaseMessage): void {
    if (lease.account) this.track(releaseUnused(this.d, lease, lease.account.id));
  }

  private startWaiting(): void {
    while (this.runningCount < this.d.capacity && this.waiting.length > 0) {
      const h = this.waiting.shift()!;
      this.runningCount += 1;
      // Nobody awaits a run: what it could not report is logged (its lease then expires).
      this.execute(h).catch((err: unknown) =>
        this.d.log.warn(`running ${h.lease.subTaskId} failed:`, err),
      );
    }
  }

  private forget(h: Held): void {
    this.renewals.delete(h.lease);
    this.held.delete(heldKey(h.lease));
  }

  private async execute(h: Held): Promise<void> {
    const { lease, driver, settings, port, controller } = h;
    const via = { proxyIp: port?.outIp ?? null, proxyKey: port?.key ?? null };
    const { signal } = controller;
    const deadline = setTimeout(
      () =>
        controller.abort(
          new PlatformError(
            `no answer within ${Math.round(settings.timeoutMs / 1000)} s`,
            'timeout',
            true,
          ),
        ),
      settings.timeoutMs,
    );
    let outcome: Outcome | undefined;
    let handedBack = false;
    let failure: unknown = null;
    const job: Job = { prompt: lease.prompt, mode: lease.mode as Job['mode'], signal };
    const startedAt = performance.now();
    const startedAtEpoch = Date.now();
    const web =
      lease.channel === 'web'
        ? new WebAttempt(this.d, { lease, web: driver.web!, settings, port, job })
        : undefined;
    const account = web ? { accountId: web.accountId } : {};
    try {
      const { answer, shots } = web
        ? await web.run()
        : await apiAttempt(this.d, { lease, driver, settings, port, job });
      // Mode 2 makes two images: the spec's one `pageScreenshot` stays the full page (now
      // highlighted), and the clip around the first mention is stored beside it as its own URL.
      const save = (png: Buffer) => this.d.saveScreenshot(png, lease.subTaskId);
      const pageScreenshot = shots ? await save(shots.png) : null;
      // An API answer ran the mode asked for; a web driver reads its own from the site's request.
      outcome = {
        result: {
          effectiveMode: job.mode,
          ...answer,
          pageScreenshot,
          ...(shots?.mentionPng && { mentionScreenshot: await save(shots.mentionPng) }),
          ...(shots?.note !== undefined && { screenshotNote: shots.note }),
        },
        ...via,
        ...account,
        ...(web && { web: webFacts(lease) }),
        answerMs: Math.round(performance.now() - startedAt),
        startedAt: startedAtEpoch,
      };
    } catch (err) {
      const reason = signal.aborted ? signal.reason : err;
      failure = reason;
      handedBack = reason instanceof HandedBack;
      if (!(reason instanceof LeaseLost) && !handedBack) {
        outcome = {
          failure: toFailure(reason),
          ...via,
          ...account,
          ...(web && { web: webFacts(lease, reason) }),
        };
        // Was it the port? Its check says so at once, before the retry picks one.
        if (port && outcome.failure!.retryable) this.d.portFailed(port.key);
      }
    } finally {
      clearTimeout(deadline);
      this.forget(h);
      // The slot is free once the work is done: a waiting lease starts now, and
      // the report below makes the scheduler lease the next one to this node.
      this.runningCount -= 1;
      this.startWaiting();
      if (this.runningCount === 0) for (const idle of this.idleWaiters.splice(0)) idle();
    }
    // Tracked from here, so that stopping waits for the account and the report as well.
    const done = outcome;
    await this.track(
      (async () => {
        if (web) {
          // The account is released before the report: the retry must see its verdict.
          const evidenceId = await web.finish({ reported: done !== undefined, failure });
          if (done?.result) done.result.evidenceId = evidenceId;
        }
        if (handedBack) await this.handBack(h, true);
        else if (done)
          await this.send(`reporting ${lease.subTaskId}`, () => this.d.report(lease, done));
      })(),
    );
  }

  /**
   * A report or a hand-back, retried briefly (if it never arrives, the lease
   * expires and the work is redone); stopping waits for it.
   */
  private send(what: string, call: () => Promise<void>): Promise<void> {
    const sending = (async () => {
      for (let attempt = 1; attempt <= 5; attempt++) {
        try {
          await call();
          return;
        } catch (err) {
          this.d.log.warn(`${what} failed (attempt ${attempt}):`, err);
          await delay(500 * attempt);
        }
      }
    })();
    return this.track(sending);
  }

  /** Work on its way out (reports, hand-backs, account releases): stopping waits for it. */
  private track(work: Promise<void>): Promise<void> {
    this.outgoing.add(work);
    // Both ways, so this bookkeeping never makes a rejection of its own; the caller gets `work`.
    const forget = () => void this.outgoing.delete(work);
    work.then(forget, forget);
    return work;
  }
}

/** What collector health counts of a web attempt: its region and the verdict its failure carried. */
function webFacts(lease: LeaseMessage, err?: unknown): WebAttemptFacts {
  const verdict = err instanceof PlatformError ? err.account?.state : undefined;
  return { regionCode: lease.regionCode, ...(verdict && { accountVerdict: verdict }) };
}

export function toFailure(err: unknown): Failure {
  if (err instanceof PlatformError) {
    return {
      status: err.status,
      retryable: err.retryable,
      message: err.message,
      retryAfterSeconds: err.retryAfterSeconds,
    };
  }
  const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  // Browser crashes, navigation and network trouble: worth another attempt.
  return { status: 'failed', retryable: true, message: `crawler error: ${message}` };
}
