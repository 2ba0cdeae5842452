/**
 * Runs the leases a crawler node accepted: the platform's driver on the
 * leased channel, the screenshot when one was asked for, renewal of the lease
 * at half its length, a deadline, and one report of the outcome. A lease that
 * is lost (renewal refused) stops the work and reports nothing: the sub task
 * already belongs to someone else.
 */
import type { Page } from 'playwright';
import type { LeaseMessage } from '../services/scheduler/dispatcher.js';
import { renewalInterval } from '../services/scheduler/lease.js';
import type { Failure } from '../services/tasks/state.js';
import { findPlatform } from '../services/shared/platforms.js';
import { renderAnswerPage } from './answer-page.js';
import type { BrowserRunner } from './browser.js';
import type { RenderServer } from './render-server.js';
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
  proxyIp: string | null;
}

export interface ExecutorDeps {
  capacity: number;
  driverFor(platform: string): PlatformDriver | undefined;
  settingsFor(platform: string): PlatformSettings | undefined;
  browser: BrowserRunner;
  render: RenderServer;
  /** Stores a PNG and returns its public URL. */
  saveScreenshot(png: Buffer, subTaskId: string): Promise<string>;
  /** false: the lease is gone. */
  renew(lease: LeaseMessage): Promise<boolean>;
  report(lease: LeaseMessage, outcome: Outcome): Promise<void>;
  log: { warn(...args: unknown[]): void };
}

class LeaseLost extends Error {}

export class Executor {
  private readonly active = new Map<string, AbortController>();

  constructor(private readonly d: ExecutorDeps) {}

  get running(): number {
    return this.active.size;
  }

  accept(lease: LeaseMessage): { accepted: boolean; reason?: string } {
    if (this.active.has(lease.token)) return { accepted: true };
    if (this.active.size >= this.d.capacity)
      return { accepted: false, reason: `at capacity (${this.d.capacity})` };
    const driver = this.d.driverFor(lease.platform);
    const channel = driver?.[lease.channel];
    const settings = this.d.settingsFor(lease.platform);
    if (!driver || !channel || !settings) {
      return {
        accepted: false,
        reason: `no ${lease.channel} driver for ${lease.platform} on this node`,
      };
    }
    const controller = new AbortController();
    this.active.set(lease.token, controller);
    void this.execute(lease, driver, settings, controller).finally(() =>
      this.active.delete(lease.token),
    );
    return { accepted: true };
  }

  /** Stops all work; each lease is reported as a retryable failure so it runs elsewhere at once. */
  async stop(): Promise<void> {
    for (const controller of this.active.values())
      controller.abort(new PlatformError('crawler node stopping', 'failed', true));
    while (this.active.size > 0) await new Promise((r) => setTimeout(r, 20));
  }

  private async execute(
    lease: LeaseMessage,
    driver: PlatformDriver,
    settings: PlatformSettings,
    controller: AbortController,
  ): Promise<void> {
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
    const renewal = setInterval(() => {
      this.d
        .renew(lease)
        .then((held) => held || controller.abort(new LeaseLost('lease lost')))
        .catch((err: unknown) => this.d.log.warn(`renewing ${lease.subTaskId} failed:`, err));
    }, renewalInterval(lease.leaseMs));
    let outcome: Outcome;
    try {
      const job: Job = { prompt: lease.prompt, mode: lease.mode as Job['mode'], signal };
      const { answer, png } = await this.answer(lease, driver, settings, job);
      const pageScreenshot = png ? await this.d.saveScreenshot(png, lease.subTaskId) : null;
      outcome = { result: { ...answer, pageScreenshot }, proxyIp: null };
    } catch (err) {
      const reason = signal.aborted ? signal.reason : err;
      if (reason instanceof LeaseLost) return;
      outcome = { failure: toFailure(reason), proxyIp: null };
    } finally {
      clearTimeout(deadline);
      clearInterval(renewal);
    }
    // The slot is free once the work is done: the report below makes the
    // scheduler lease the next sub task to this node, which must find room.
    this.active.delete(lease.token);
    await this.report(lease, outcome);
  }

  private async answer(
    lease: LeaseMessage,
    driver: PlatformDriver,
    settings: PlatformSettings,
    job: Job,
  ): Promise<{ answer: Answer; png?: Buffer }> {
    const shoot = (page: Page) => page.screenshot({ fullPage: true, type: 'png' });
    if (lease.channel === 'web') {
      const web = driver.web!;
      return this.d.browser.open({
        url: web.startUrl(job, { settings }),
        signal: job.signal,
        run: async (page) => {
          const answer = await web.ask(page, job, { settings });
          return { answer, png: lease.screenshot > 0 ? await shoot(page) : undefined };
        },
      });
    }
    const answer = await driver.api!.ask(job, { settings, fetch });
    if (lease.screenshot === 0) return { answer };
    const label = findPlatform(lease.platform)?.label ?? lease.platform;
    const page = this.d.render.publish(
      renderAnswerPage({ platformLabel: label, prompt: lease.prompt, answer }),
    );
    try {
      return {
        answer,
        png: await this.d.browser.open({ url: page.url, signal: job.signal, run: shoot }),
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
