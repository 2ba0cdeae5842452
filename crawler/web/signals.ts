/**
 * The failures a consumer site signals, as PlatformErrors carrying what they
 * mean for the account (web-channel.md, "Login-wall signals"). None of them is
 * ever an answer:
 * - a login wall, sign-in redirect, captcha or slide challenge, Cloudflare
 *   interstitial, or 401/403 on the chat call: the attempt fails (retryable,
 *   the next round uses another account) and the account needs a person;
 * - a rate or quota message: retryable elsewhere, the account cools down;
 * - a refusal to answer: final `failed`, the account is fine;
 * - driver drift (the page no longer matches the driver: a stream the parser
 *   does not understand, a control it cannot find): final `failed`, never a
 *   guess, not retried on another account (it would see the same page), and
 *   the account is fine.
 */
import { PlatformError } from '../platforms/types.js';

/** How long an account cools after a rate message that names no time. */
export const DEFAULT_COOLING_S = 15 * 60;

export function needsHuman(site: string, signal: string): PlatformError {
  const reason = `${signal} (${site})`;
  return new PlatformError(reason, 'failed', true, undefined, { state: 'needs_human', reason });
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
 * The stream and the rendered page say different answers and the page's own
 * reader cannot give the whole answer instead (crawler/web/witness.ts): the
 * parser lost or misplaced content. Named with the frames it did not apply.
 */
export function formatDrift(site: string, detail: string): PlatformError {
  return driverDrift(`format_drift: ${site} ${detail}`);
}
