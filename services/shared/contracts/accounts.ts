/**
 * The `accounts` service on the wire: web-channel identities (one logged-in
 * person on one consumer site), claimed by the scheduler for one sub task at
 * a time, checked out by the crawler node that runs it, and released with a
 * verdict on what the site said.
 */

/** healthy: usable; cooling: rate or quota hit, usable again at `coolUntil`; needs_human: a person must log in or solve a challenge; disabled: by an operator. */
export const ACCOUNT_STATES = ['healthy', 'cooling', 'needs_human', 'disabled'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

/**
 * What a person must do for a `needs_human` account (docs/web-channel.md, "Accounts"):
 * - login_wall: the site shows its sign-in (a login page or dialog, a logged-out page, a 403 on
 *   the chat call): log the account in again now;
 * - session_expired: the page showed the logged-in chat and the site then refused the session
 *   (a 401 on the chat call, its own "session expired" error): the session has died (expired,
 *   revoked, logged in elsewhere); log in again, and if it dies again soon find out why;
 * - verification: a captcha, slide or location check, a Cloudflare interstitial: a person solves
 *   it in the account's browser.
 */
export const HUMAN_KINDS = ['login_wall', 'session_expired', 'verification'] as const;
export type HumanKind = (typeof HUMAN_KINDS)[number];

/** What the site's answer (or refusal to answer) says about the account. */
export type AccountVerdict =
  | { state: 'healthy' }
  /** Rate or quota message: not before `untilMs` (epoch ms). */
  | { state: 'cooling'; untilMs: number; reason: string }
  /** Login wall, expired session, captcha, interstitial: a person must act (`kind`: what to do). */
  | {
      state: 'needs_human';
      reason: string;
      /** Absent: a login wall (verdicts from before kinds existed). */
      kind?: HumanKind;
      screenshotPng?: string /* base64 */;
    };

/** `accounts.claim`: one usable account for a web sub task, held for it alone. */
export interface ClaimRequest {
  platform: string;
  /** null: any region (the sub task has none). */
  regionCode: string | null;
  /** Who holds it: `subTaskId token`. */
  holder: string;
  /** Proxy ports (`host:port`) live crawler nodes serve; an account pinned elsewhere is not claimed. */
  ports: string[];
  /** Accounts not to use (the previous attempt's). */
  avoid?: string[];
}

export interface ClaimedAccount {
  id: string;
  label: string;
  platform: string;
  regionCode: string | null;
  /** The one proxy port the account always uses; null: direct (an account without region). */
  proxyKey: string | null;
}

export type ClaimAnswer = { account: ClaimedAccount } | { account: null; reason: string };

/** `accounts.checkout`: the identity a crawler node needs to open the site as the account. */
export interface CheckoutRequest {
  id: string;
  holder: string;
}

export interface CheckedOutAccount extends ClaimedAccount {
  /** Playwright storage state (cookies and local storage), decrypted for this use only. */
  storageState: StorageState;
  locale: string;
  timezoneId: string;
}

/** `accounts.release`: the holder is done; the account takes the verdict and the state the page left. */
export interface ReleaseRequest {
  id: string;
  holder: string;
  verdict: AccountVerdict;
  /**
   * The page's storage state after a run that proved the session alive (an answer, or a chat
   * call the site answered), with the tokens it refreshed. Never sent after a wall, and the
   * service never stores one with a needs_human verdict: the last good login stays until a person
   * logs in again.
   */
  storageState?: StorageState;
  /** Whether a prompt was sent (counts against the quota and the pacing gap). */
  prompted: boolean;
}

/** `accounts.usable`: accounts free now, per `platform|regionCode` (regionCode '' = none). */
export interface UsableAnswer {
  counts: Record<string, number>;
}

/**
 * `accounts.coverage`: per platform, the regions of its accounts in working
 * order (enabled, a stored login, the key to open it), null for accounts
 * without region. Busy, resting and cooling accounts count: they come back.
 */
export interface CoverageAnswer {
  regions: Record<string, (string | null)[]>;
}

/** Playwright's storage state, as `context.storageState()` returns it. */
export interface StorageState {
  cookies: {
    name: string;
    value: string;
    domain: string;
    path: string;
    expires: number;
    httpOnly: boolean;
    secure: boolean;
    sameSite: 'Strict' | 'Lax' | 'None';
  }[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}
