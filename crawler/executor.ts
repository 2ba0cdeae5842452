/**
 * Runs the leases a crawler node accepted: the platform's driver on the
 * leased channel, the screenshot when one was asked for, renewal of the lease
 * at half its length, a deadline, and one report of the outcome. A lease that
 * is lost (renewal refused) stops the work and reports nothing: the sub task
 * already belongs to someone else.
 */
import type { Page } from 'playwright';
import type { AcceptAnswer, LeaseMessage } from '../services/scheduler/dispatcher.js';
import { renewalInterval } from '../services/scheduler/lease.js';
import type { Failure } from '../services/tasks/state.js';
import { findPlatform } from '../services/shared/platforms.js';
import { renderAnswerPage } from './answer-page.js';
import type { BrowserRunner } from './browser.js';
import type { RenderServer } from './render-server.js';
import type { ChosenPort, ProxyPool } from './proxy-pool.js';
import {
  PlatformError,
  type Answer,
  type Job,
  type PlatformDriver,
  type PlatformSettings,
} from './platforms/types.js';

export interface Outcome {
  result?: Answer & { pageScreenshot: string | null };
  failure?: Failure;
  /** Exit address of the proxy port used; null when the work went direct. */
  proxyIp: string | null;
  /** Which port (`host:port`), so a retry can avoid it. */
  proxyKey: string | null;
}

export interface ExecutorDeps {
  capacity: number;
  /** Leases held beyond the capacity, started in arrival order as slots free. */
  prefetch: number;
  driverFor(platform: string): PlatformDriver | undefined;
  settingsFor(platform: string): PlatformSettings | undefined;
  /** This node's regional proxy ports. */
  proxies: ProxyPool;
  /** fetch through the port (direct when null). */
  fetchVia(port: ChosenPort | null): typeof fetch;
  /** An attempt through the port failed: check the port again now. */
  portFailed(key: string): void;
  browser: BrowserRunner;
  render: RenderServer;
  /** Stores a PNG and returns its public URL. */
  saveScreenshot(png: Buffer, subTaskId: string): Promise<string>;
  /** false: the lease is gone. */
  renew(lease: LeaseMessage): Promise<boolean>;
  report(lease: LeaseMessage, outcome: Outcome): Promise<void>;
  /** Hands back a lease that never started, without using up an attempt. */
  release(lease: LeaseMessage): Promise<void>;
  log: { warn(...args: unknown[]): void };
}

class LeaseLost extends Error {}

/** A lease this node holds, running or waiting for a slot. */
interface Held {
  lease: LeaseMessage;
  driver: PlatformDriver;
  settings: PlatformSettings;
  port: ChosenPort | null;
  controller: AbortController;
  renewal: NodeJS.Timeout;
}

/** A lease is its sub task plus its token (one token serves a whole dispatch pass). */
const heldKey = (lease: LeaseMessage) => `${lease.subTaskId} ${lease.token}`;

export class Executor {
  private readonly held = new Map<string, Held>();
  private readonly waiting: Held[] = [];
  /** Reports on their way, so that stopping waits for them. */
  private readonly reporting = new Set<Promise<void>>();
  private runningCount = 0;

  constructor(private readonly d: ExecutorDeps) {}

  get running(): number {
    return this.runningCount;
  }

  get queued(): number {
    return this.waiting.length;
  }

  accept(lease: LeaseMessage): AcceptAnswer['results'][number] {
    if (this.held.has(heldKey(lease))) return { accepted: true };
    if (this.held.size >= this.d.capacity + this.d.prefetch)
      return {
        accepted: false,
        reason: `at capacity (${this.d.capacity} running, ${this.d.prefetch} waiting)`,
      };
    const driver = this.d.driverFor(lease.platform);
    const channel = driver?.[lease.channel];
    const settings = this.d.settingsFor(lease.platform);
    if (!driver || !channel || !settings) {
      return {
        accepted: false,
        reason: `no ${lease.channel} driver for ${lease.platform} on this node`,
        cannotRun: true,
      };
    }
    const port = this.d.proxies.pick(lease.regionCode, lease.avoidProxy ?? null);
    if (port === undefined)
      return { accepted: false, reason: `no active proxy port for region ${lease.regionCode}` };
    const controller = new AbortController();
    // Renewed from the moment it is held: a waiting lease must not expire either.
    const renewal = setInterval(() => {
      this.d
        .renew(lease)
        .then((held) => held || controller.abort(new LeaseLost('lease lost')))
        .catch((err: unknown) => this.d.log.warn(`renewing ${lease.subTaskId} failed:`, err));
    }, renewalInterval(lease.leaseMs));
    const h: Held = { lease, driver, settings, port, controller, renewal };
    this.held.set(heldKey(lease), h);
    controller.signal.addEventListener('abort', () => {
      // A waiting lease that is lost or stopped just leaves the queue.
      const at = this.waiting.indexOf(h);
      if (at >= 0) {
        this.waiting.splice(at, 1);
        this.forget(h);
      }
    });
    this.waiting.push(h);
    this.startWaiting();
    return { accepted: true };
  }

  /**
   * Stops all work: running leases are reported as retryable failures so they
   * run elsewhere at once; waiting ones are handed back unstarted.
   */
  async stop(): Promise<void> {
    const unstarted = this.waiting.splice(0);
    for (const h of unstarted) this.forget(h);
    for (const h of this.held.values())
      h.controller.abort(new PlatformError('crawler node stopping', 'failed', true));
    await Promise.all(
      unstarted.map((h) =>
        this.d
          .release(h.lease)
          .catch((err: unknown) => this.d.log.warn(`handing back ${h.lease.subTaskId}:`, err)),
      ),
    );
    while (this.held.size > 0) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(this.reporting);
  }

  private startWaiting(): void {
    while (this.runningCount < this.d.capacity && this.waiting.length > 0) {
      const h = this.waiting.shift()!;
      this.runningCount += 1;
      void this.execute(h);
    }
  }

  private forget(h: Held): void {
    clearInterval(h.renewal);
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
    try {
      const job: Job = { prompt: lease.prompt, mode: lease.mode as Job['mode'], signal };
      const { answer, png } = await this.answer(lease, driver, settings, port, job);
      const pageScreenshot = png ? await this.d.saveScreenshot(png, lease.subTaskId) : null;
      outcome = { result: { ...answer, pageScreenshot }, ...via };
    } catch (err) {
      const reason = signal.aborted ? signal.reason : err;
      if (!(reason instanceof LeaseLost)) {
        outcome = { failure: toFailure(reason), ...via };
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
    }
    if (!outcome) return;
    const reported = this.report(lease, outcome);
    this.reporting.add(reported);
    await reported;
    this.reporting.delete(reported);
  }

  private async answer(
    lease: LeaseMessage,
    driver: PlatformDriver,
    settings: PlatformSettings,
    port: ChosenPort | null,
    job: Job,
  ): Promise<{ answer: Answer; png?: Buffer }> {
    const shoot = (page: Page) => page.screenshot({ fullPage: true, type: 'png' });
    if (lease.channel === 'web') {
      const web = driver.web!;
      return this.d.browser.open({
        url: web.startUrl(job, { settings }),
        proxyUrl: port?.url,
        allowedOrigins: web.origins({ settings }),
        signal: job.signal,
        run: async (page) => {
          const answer = await web.ask(page, job, { settings });
          return { answer, png: lease.screenshot > 0 ? await shoot(page) : undefined };
        },
      });
    }
    const answer = await driver.api!.ask(job, { settings, fetch: this.d.fetchVia(port) });
    if (lease.screenshot === 0) return { answer };
    const label = findPlatform(lease.platform)?.label ?? lease.platform;
    const page = this.d.render.publish(
      renderAnswerPage({ platformLabel: label, prompt: lease.prompt, answer }),
    );
    try {
      return {
        answer,
        png: await this.d.browser.open({
          url: page.url,
          allowedOrigins: [new URL(page.url).origin],
          signal: job.signal,
          run: shoot,
        }),
      };
    } finally {
      page.dispose();
    }
  }

  /** Reports the outcome, retrying briefly: if it never arrives, the lease expires and the work is redone. */
  private async report(lease: LeaseMessage, outcome: Outcome): Promise<void> {
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        await this.d.report(lease, outcome);
        return;
      } catch (err) {
        this.d.log.warn(`reporting ${lease.subTaskId} failed (attempt ${attempt}):`, err);
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  }
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
