/**
 * The failures a consumer site signals, as PlatformErrors carrying what they
 * mean for the account (web-channel.md, "Login-wall signals"). None of them is
 * ever an answer:
 * - a login wall, sign-in redirect, captcha or slide challenge, Cloudflare
 *   interstitial, 403 on the chat call, or a session the site ended (a 401 on
 *   the chat call from a page that showed the logged-in chat:
 *   `session_expired`): the attempt fails (retryable, the next round uses
 *   another account) and the account needs a person, with the kind of help
 *   it needs (HumanKind);
 * - a rate or quota message: retryable elsewhere, the account cools down;
 * - a refusal to answer: final `failed`, the account is fine;
 * - driver drift (the page no longer matches the driver: a stream the parser
 *   does not understand, a control it cannot find): final `failed`, never a
 *   guess, not retried on another account (it would see the same page), and
 *   the account is fine.
 */
import type { HumanKind } from '../../services/shared/contracts/accounts.js';
import { PlatformError } from '../platforms/types.js';

/** How long an account cools after a rate message that names no time. */
export const DEFAULT_COOLING_S = 15 * 60;

const VERIFICATION = /captcha|verif|challenge|interstitial|cloudflare|slide|验证|滑块/i;
const EXPIRED = /session[ _]expired|expired session/i;

/**
 * The help a needs-human signal asks for, read from its name: the words before
 * the site's own (`captcha: …`, `session expired: …`, `login wall: … (用户未注册)`).
 */
export function humanKindOf(signal: string): HumanKind {
  const name = signal.split(/[:(]/, 1)[0]!;
  if (VERIFICATION.test(name)) return 'verification';
  if (EXPIRED.test(name)) return 'session_expired';
  return 'login_wall';
}

export function needsHuman(
  site: string,
  signal: string,
  kind: HumanKind = humanKindOf(signal),
): PlatformError {
  const reason = `${signal} (${site})`;
  return new PlatformError(reason, 'failed', true, undefined, {
    state: 'needs_human',
    reason,
    kind,
  });
}

/**
 * The page showed the logged-in chat and the site then refused the session
 * (a 401 on its chat call): the session has died, which is not a login wall.
 */
export function sessionExpired(site: string, detail: string): PlatformError {
  return needsHuman(site, `session_expired: ${detail}`, 'session_expired');
}

export function rateLimited(
  site: string,
  message: string,
  seconds = DEFAULT_COOLING_S,
): PlatformError {
  const reason = `rate or quota limit on ${site}: ${message}`;
  return new PlatformError(reason, 'error', true, seconds, {
    state: 'cooling',
    untilMs: Date.now() + seconds * 1000,
    reason,
  });
}

export function refused(site: string, message: string): PlatformError {
  return new PlatformError(`${site} refused to answer: ${message}`, 'failed', false);
}

/** The driver's picture of the site no longer matches the site. */
export function driverDrift(signal: string): PlatformError {
  return new PlatformError(signal, 'failed', false);
}

export function unrecognisedFormat(site: string, detail: string): PlatformError {
  return driverDrift(`unrecognised ${site} stream format: ${detail}`);
}

/** A control the mode needs is not on the page (`control_missing: doubao deep-thinking`). */
export function controlMissing(site: string, control: string): PlatformError {
  return driverDrift(`control_missing: ${site} ${control}`);
}

/** A control was found and used but did not take the requested state. */
export function controlUnchanged(site: string, control: string): PlatformError {
  return driverDrift(`control_unchanged: ${site} ${control}`);
}

/**
 * The page did not carry a control the kit set into the ask: the chat call
 * asked, or the stream ran, otherwise (`mode_not_applied: deepseek deep-thinking`).
 */
export function modeNotApplied(site: string, control: string): PlatformError {
  return driverDrift(`mode_not_applied: ${site} ${control}`);
}

/**
 * The stream and the rendered page say different answers and the page's own
 * reader cannot give the whole answer instead (crawler/web/witness.ts): the
 * parser lost or misplaced content. Named with the frames it did not apply.
 */
export function formatDrift(site: string, detail: string): PlatformError {
  return driverDrift(`format_drift: ${site} ${detail}`);
}
