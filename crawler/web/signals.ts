/**
 * The failures a consumer site signals, as PlatformErrors carrying what they
 * mean for the account (web-channel.md, "Login-wall signals"). None of them is
 * ever an answer:
 * - a login wall, sign-in redirect, captcha or slide challenge, Cloudflare
 *   interstitial, or 401/403 on the chat call: the attempt fails (retryable,
 *   the next round uses another account) and the account needs a person;
 * - a rate or quota message: retryable elsewhere, the account cools down;
 * - a refusal to answer: final `failed`, the account is fine;
 * - a stream the parser does not understand: final `failed`, never a guess.
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

export function unrecognisedFormat(site: string, detail: string): PlatformError {
  return new PlatformError(`unrecognised ${site} stream format: ${detail}`, 'failed', false);
}
