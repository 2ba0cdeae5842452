/**
 * The one small interface every platform driver implements, for both channels:
 * `api` (the vendor's HTTP API, no browser) and `web` (the consumer site driven
 * by Playwright). Drivers only talk to the platform and extract the answer;
 * leases, retries, proxies, screenshots and storage belong to the executor.
 */
import type { Page } from 'playwright';
import type { Mode } from '../../services/shared/platforms.js';
export type { ApiDefaults, WebDefaults } from '../../services/shared/platforms/definition.js';
import type { Answer } from '../../services/shared/contracts/answer.js';
import type { AccountVerdict } from '../../services/shared/contracts/accounts.js';

/** The work a driver is asked to do. */
export interface Job {
  prompt: string;
  mode: Mode;
  /** Ends the work: the executor aborts at the platform's deadline or when the lease is lost. */
  signal: AbortSignal;
}

/** Operator configuration of one platform (never from requests). */
export interface PlatformSettings {
  /** Base URL of the API (or of the stand-in / gateway that replaces it). */
  apiBaseUrl: string;
  /** Address of the consumer site for the web channel. */
  webUrl: string;
  apiKey?: string;
  /** Model per mode, where the vendor picks behaviour by model. */
  models?: Partial<Record<Mode, string>>;
  timeoutMs: number;
}

export interface ApiContext {
  settings: PlatformSettings;
  /** fetch that goes through the lease's regional proxy when there is one. */
  fetch: typeof fetch;
}

/** One response of the page's own network, read as it arrives (crawler/web/capture.ts). */
export interface CapturedStream {
  url: string;
  method: string;
  /** The request body as sent (JSON for most sites): the effective mode is read from it. */
  requestBody: string | undefined;
  status: number;
  mimeType: string;
  /** The body's bytes as they arrive; ends with the response, throws if it fails. */
  chunks: AsyncIterable<Buffer>;
}

export interface StreamCapture {
  /**
   * The next response whose URL matches (call it before the page sends the
   * request). Rejects with the signal's reason if none comes first.
   */
  next(match: RegExp, signal: AbortSignal): Promise<CapturedStream>;
  /** Detaches from the page and its workers; open streams end. */
  close(): Promise<void>;
}

/** One line of a sub task's raw evidence (crawler/web/evidence-log.ts keeps them). */
export type EvidenceEntry =
  | { t: number; kind: 'request'; url: string; method: string; body?: string }
  | { t: number; kind: 'response'; url: string; status: number; mimeType: string }
  /** One frame as the site sent it: text, or base64 for binary framing (Kimi's Connect). */
  | { t: number; kind: 'frame'; data: string; encoding?: 'base64' }
  | { t: number; kind: 'note'; text: string }
  /**
   * The answer element's HTML as the page finally showed it, scripts removed
   * (crawler/web/answer-dom.ts); `length` is the whole HTML's, `html` at most
   * ANSWER_DOM_CHARS of it.
   */
  | { t: number; kind: 'dom'; selector: string; html: string; length: number };

/** What a driver records of its sub task: every frame as received, and notes. */
export interface Evidence {
  /** A frame as received; bytes that are not UTF-8 text are kept as base64. */
  frame(data: string | Uint8Array): void;
  note(text: string): void;
  list(): readonly EvidenceEntry[];
}

export interface WebContext {
  settings: PlatformSettings;
  /** The page's own network streams, read through CDP (crawler/web/capture.ts). */
  capture: StreamCapture;
  /** The raw evidence of this sub task: every captured frame, stored compressed. */
  evidence: Evidence;
}

/** A web driver's answer: the fields, plus what really ran and which stream format it read. */
export interface WebAnswer extends Answer {
  /** Read from the captured request body (e.g. DeepSeek `search_enabled`), never assumed. */
  effectiveMode: Mode;
  /** The stream parser version that recognised the frames, e.g. `deepseek-2026`. */
  formatVersion: string;
  /**
   * Which witness the answer was taken from: the chat call's stream (the
   * default), or the rendered page when the two disagreed beyond formatting
   * and the site's DOM reader gives the whole answer (crawler/web/witness.ts).
   */
  answerSource?: 'stream' | 'dom';
}

/** What a login probe finds on an opened page of the site. */
export type LoginState = { loggedIn: true } | { loggedIn: false; reason: string };

export interface ApiDriver {
  ask(job: Job, ctx: ApiContext): Promise<Answer>;
}

export interface WebDriver {
  /** The page the executor opens before calling ask. */
  startUrl(job: Job, ctx: Pick<WebContext, 'settings'>): string;
  /**
   * Every origin the platform's pages need: the site, its API and login hosts,
   * its CDNs (`https://*.cdn.example` for any subdomain; syntax in
   * crawler/origin-allow.ts). The browser aborts every other request, so
   * nothing foreign leaves through the customer's regional proxy.
   */
  origins(ctx: Pick<WebContext, 'settings'>): readonly string[];
  /**
   * Drives the opened page to an answer; the page stays open for the
   * screenshot, with the answer and its sources panel in view. Login walls,
   * challenges, rate messages and refusals throw PlatformError with the
   * matching `account` verdict (crawler/web/signals.ts builds them).
   */
  ask(page: Page, job: Job, ctx: WebContext): Promise<WebAnswer>;
  /**
   * Starts the next chat on a page kept from the account's last sub task:
   * through the site's own new-chat control, or by loading startUrl again
   * when the page offers none. Absent: the executor loads startUrl again.
   */
  newChat?(
    page: Page,
    ctx: Pick<WebContext, 'settings' | 'evidence'>,
  ): Promise<'control' | 'reload'>;
  /** The page's own chat call as the capture matches its URL (the web benchmark counts them). */
  chatCall?: RegExp;
  /** The answer's element (the last match is the newest): its DOM snapshot goes into the evidence. */
  answerSelector?: string;
  /** Where a person logs in (`npm run admin -- account login`). */
  loginUrl(ctx: Pick<WebContext, 'settings'>): string;
  /** Whether the opened page (at startUrl) shows a logged-in session (`account check`). */
  loginState(page: Page, ctx: Pick<WebContext, 'settings'>): Promise<LoginState>;
}

/**
 * A platform's drivers, one per channel this build runs for it (and the
 * platform's definition lists); the registry (index.ts) assembles them.
 */
export interface PlatformDriver {
  name: string;
  api?: ApiDriver;
  web?: WebDriver;
}

/**
 * Final sub task status a failure maps to (spec 3.2): `failed` (no usable
 * answer, block or login page, refusal, parse failure), `timeout`, `error`
 * (credentials, billing, quota at the platform).
 */
export type FailureStatus = 'failed' | 'timeout' | 'error';

/** The one error type drivers throw; `retryable` decides whether a retry round follows. */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly status: FailureStatus,
    readonly retryable: boolean,
    /** Seconds the platform asked us to wait (Retry-After), if it did. */
    readonly retryAfterSeconds?: number,
    /** Web channel: what the failure says about the account that ran it. */
    readonly account?: Exclude<AccountVerdict, { state: 'healthy' }>,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}
