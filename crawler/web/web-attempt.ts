/**
 * One attempt of a web-channel sub task on the consumer site: the claimed
 * account checked out (its identity becomes the page's own context), the
 * account's page kept from its last sub task on this node (kept-pages.ts) or
 * a new one (a kept page starts its next chat through the site's new-chat
 * control, driver.newChat), through the account's pinned proxy port, the page's stream captured
 * into the evidence log, the driver's answer, the screenshot; then, answered
 * or not, the evidence stored and the account released with what the site
 * said about it. A lease without an account (the sandbox's web channel when
 * no accounts exist) runs the same way on a blank context.
 *
 * `prompted` on release (what counts against the account's quota and pacing
 * gap) is true unless the driver never ran (checkout, navigation or browser
 * failed first) or a needs-human verdict came before the driver asked for the
 * chat stream: drivers ask (`capture.next`) right before they send, so a
 * login wall found on opening the page used no prompt.
 *
 * A wall never destroys a login: the page's storage state goes back to the
 * account only after a run that proved the session alive (an answer, or a chat
 * call the site answered with its stream, such as a drift the parser did not
 * read), never after a needs-human signal or a failure before the site
 * answered. The crawler and `driver-check` both run this one attempt.
 */
import type { Page } from 'playwright';
import type {
  AccountVerdict,
  CheckedOutAccount,
  CheckoutRequest,
  ReleaseRequest,
  StorageState,
} from '../../services/shared/contracts/accounts.js';
import type { LeaseMessage } from '../../services/shared/contracts/lease.js';
import { untilAborted, type BrowserRunner } from '../browser.js';
import type { ChosenPort } from '../proxy-pool.js';
import {
  PlatformError,
  type Job,
  type PlatformSettings,
  type StreamCapture,
  type WebAnswer,
  type WebDriver,
} from '../platforms/types.js';
import { recordAnswerDom } from './answer-dom.js';
import { startCapture } from './capture.js';
import { EvidenceLog } from './evidence-log.js';
import { pageFit, type KeptPages } from './kept-pages.js';
import { NAVIGATION_TIMEOUT_MS } from './new-chat.js';
import { takeShots, type Shots } from '../mentions/shots.js';

/** The `accounts` service as a crawler node calls it. */
export interface AccountsClient {
  checkout(request: CheckoutRequest): Promise<CheckedOutAccount>;
  release(request: ReleaseRequest): Promise<void>;
}

export interface WebAttemptDeps {
  browser: BrowserRunner;
  /** Each account's page kept between its sub tasks on this node. */
  keptPages: KeptPages;
  accounts: AccountsClient;
  /** Stores the attempt's NDJSON (services/shared/evidence.ts) and returns its id. */
  saveEvidence(ndjson: string, subTaskId: string): Promise<string>;
  log: { warn(...args: unknown[]): void };
}

export interface WebAttemptInput {
  lease: LeaseMessage;
  web: WebDriver;
  settings: PlatformSettings;
  /** The account's pinned port (or the region's pick without an account); null: direct. */
  port: ChosenPort | null;
  job: Job;
  /**
   * A full-page screenshot of the page on any failure (`failureShot`), not
   * only on a needs-human one: `driver-check` keeps it for the operator.
   */
  shotOnFailure?: boolean;
}

/** How long the needs-human screenshot may take: the page may be stuck behind its challenge. */
const HUMAN_SHOT_TIMEOUT_MS = 5_000;

/** The account's holder name, as the scheduler claimed it. */
export const holderOf = (lease: LeaseMessage): string => `${lease.subTaskId} ${lease.token}`;

export class WebAttempt {
  readonly evidence = new EvidenceLog();
  private account: CheckedOutAccount | undefined;
  private driverRan = false;
  private streamAsked = false;
  /** Whether the site answered the chat call with a 2xx (it accepted the session). */
  private chatAnswered = false;
  private storageState: StorageState | undefined;
  private shot: Buffer | undefined;

  constructor(
    private readonly d: WebAttemptDeps,
    private readonly input: WebAttemptInput,
  ) {}

  get accountId(): string | null {
    return this.input.lease.account?.id ?? null;
  }

  /** The page's screenshot after a failure (needs-human, or any with `shotOnFailure`). */
  get failureShot(): Buffer | undefined {
    return this.shot;
  }

  /** The driver's answer and, when the lease asks for one, the page's screenshot. */
  async run(): Promise<{ answer: WebAnswer; shots?: Shots }> {
    const { lease, web, settings, port, job } = this.input;
    if (lease.account)
      this.account = await this.d.accounts.checkout({
        id: lease.account.id,
        holder: holderOf(lease),
      });
    const url = web.startUrl(job, { settings });
    const allowedOrigins = web.origins({ settings });
    const identity = this.account && {
      storageState: this.account.storageState,
      locale: this.account.locale,
      timezoneId: this.account.timezoneId,
    };
    if (!this.account || !identity) {
      this.evidence.note(`open ${url}`);
      return this.d.browser.open({
        url,
        proxyUrl: port?.url,
        allowedOrigins,
        identity,
        signal: job.signal,
        run: (page) => this.drive(page),
      });
    }
    const fit = (storageState: StorageState) =>
      pageFit({ proxyUrl: port?.url, allowedOrigins, ...identity, storageState });
    const { kept, reused } = await this.d.keptPages.take(
      this.account.id,
      fit(identity.storageState),
      () => this.d.browser.keepPage({ proxyUrl: port?.url, allowedOrigins, identity }),
    );
    this.evidence.note(
      reused ? `open ${url} (the account's page, kept from its last sub task)` : `open ${url}`,
    );
    let healthy = false;
    try {
      const result = await untilAborted(
        (async () => {
          if (reused && web.newChat)
            await web.newChat(kept.page, { settings, evidence: this.evidence });
          else await kept.page.goto(url, { timeout: NAVIGATION_TIMEOUT_MS });
          return this.drive(kept.page);
        })(),
        job.signal,
      );
      healthy = true;
      return result;
    } finally {
      // The next checkout hands out the state saved on release (or, unread, the one it had).
      const next = fit(this.storageState ?? identity.storageState);
      await this.d.keptPages.giveBack(this.account.id, kept, next, healthy);
    }
  }

  private async drive(page: Page): Promise<{ answer: WebAnswer; shots?: Shots }> {
    const { lease, web, settings, job } = this.input;
    const capture = await startCapture(page, this.evidence);
    const watched: StreamCapture = {
      next: (match, signal) => {
        this.streamAsked = true;
        const call = capture.next(match, signal);
        call.then(
          (s) => (this.chatAnswered = s.status >= 200 && s.status < 300),
          () => undefined,
        );
        return call;
      },
      close: () => capture.close(),
    };
    try {
      this.driverRan = true;
      const answer = await web.ask(page, job, {
        settings,
        capture: watched,
        evidence: this.evidence,
      });
      if (web.answerSelector) await recordAnswerDom(page, web.answerSelector, this.evidence);
      this.evidence.note(`answer: format ${answer.formatVersion}, mode ${answer.effectiveMode}`);
      // Mode 2 searches the whole body: which element holds the answer differs by site.
      const shots =
        lease.screenshot > 0
          ? await takeShots(page, { screenshot: lease.screenshot, keywords: lease.keywords })
          : undefined;
      if (this.account) this.storageState = await this.readState(page);
      return { answer, shots };
    } catch (err) {
      const verdict = err instanceof PlatformError ? err.account : undefined;
      const human = verdict?.state === 'needs_human';
      if (human || this.input.shotOnFailure)
        this.shot = await page
          .screenshot({
            type: 'png',
            fullPage: this.input.shotOnFailure === true,
            timeout: HUMAN_SHOT_TIMEOUT_MS,
          })
          .catch(() => undefined);
      // The session is alive only if the site answered its chat call; a wall's state is logged out.
      if (!human && this.chatAnswered && this.account)
        this.storageState = await this.readState(page);
      throw err;
    } finally {
      await capture.close();
    }
  }

  /** The page's storage state now (refreshed tokens); undefined if the page cannot tell. */
  private async readState(page: Page): Promise<StorageState | undefined> {
    try {
      return (await page.context().storageState()) as StorageState;
    } catch {
      return undefined;
    }
  }

  /**
   * After the attempt: stores its evidence when it will be reported (`failure`
   * null: it answered) and releases the account, whatever happened. Returns
   * the evidence id, null when nothing was stored.
   */
  async finish(outcome: { reported: boolean; failure: unknown }): Promise<string | null> {
    const { lease } = this.input;
    let evidenceId: string | null = null;
    if (outcome.reported && this.evidence.size > 0) {
      if (outcome.failure) this.evidence.note(`failed: ${describe(outcome.failure)}`);
      evidenceId = await this.d
        .saveEvidence(this.evidence.toNdjson(), lease.subTaskId)
        .catch((err: unknown) => {
          this.d.log.warn(`storing the evidence of ${lease.subTaskId} failed:`, err);
          return null;
        });
    }
    if (lease.account) await this.release(lease.account.id, outcome.failure);
    return evidenceId;
  }

  private async release(id: string, failure: unknown): Promise<void> {
    const found = failure instanceof PlatformError ? failure.account : undefined;
    const verdict: AccountVerdict =
      found?.state === 'needs_human'
        ? {
            ...found,
            ...(this.shot ? { screenshotPng: this.shot.toString('base64') } : {}),
          }
        : (found ?? { state: 'healthy' });
    const prompted = this.driverRan && !(found?.state === 'needs_human' && !this.streamAsked);
    await releaseAccount(this.d, {
      id,
      holder: holderOf(this.input.lease),
      verdict,
      prompted,
      ...(this.storageState ? { storageState: this.storageState } : {}),
    });
  }
}

/** The account of a lease that never ran (handed back or lost while it waited): untouched. */
export function releaseUnused(
  d: Pick<WebAttemptDeps, 'accounts' | 'log'>,
  lease: LeaseMessage,
  id: string,
): Promise<void> {
  return releaseAccount(d, {
    id,
    holder: holderOf(lease),
    verdict: { state: 'healthy' },
    prompted: false,
  });
}

/** Retried briefly; if it never arrives, the hold expires (ACCOUNT_HOLD_MS). */
async function releaseAccount(
  d: Pick<WebAttemptDeps, 'accounts' | 'log'>,
  request: ReleaseRequest,
): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await d.accounts.release(request);
      return;
    } catch (err) {
      d.log.warn(`releasing account ${request.id} failed (attempt ${attempt}):`, err);
      if (attempt < 3) await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message.split('\n')[0]! : String(err);
}
