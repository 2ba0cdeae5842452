/**
 * Doubao's own error codes, as they arrive inside a 200 stream (`STREAM_ERROR`
 * in the 2026 format, event_type 2005 in the samantha format, or a
 * `gateway-error` naming the code), turned into the site signals every web
 * driver reports (crawler/web/signals.ts). Codes from web-channel.md
 * ("Newer findings") and the projects it names: 710012000 "user invalid" is an
 * expired session, 710022004 with a `verify` decision is a captcha (a slide
 * challenge), 710022004 without one and 710022002 are rate limits.
 */
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited } from '../../../web/signals.js';

export const SITE = 'doubao';

export const USER_INVALID = 710012000;
export const TOO_FREQUENT = 710022002;
export const RISK_CONTROL = 710022004;

export interface SiteError {
  code: number;
  message: string;
  /** The risk-control decision (`{"type":"verify","subtype":"slide"}`) as sent, if any. */
  decision?: string;
}

/** Whether a risk-control decision asks the person to verify (captcha, slide). */
function asksToVerify(decision: string | undefined): boolean {
  if (!decision) return false;
  try {
    const d = JSON.parse(decision) as { type?: unknown };
    return d.type === 'verify';
  } catch {
    return /verify/.test(decision);
  }
}

export function siteError(e: SiteError): PlatformError {
  const what = `${e.code} ${e.message}`.trim();
  if (e.code === USER_INVALID) return needsHuman(SITE, `expired session: ${what}`);
  if (e.code === RISK_CONTROL && asksToVerify(e.decision))
    return needsHuman(SITE, `captcha: ${what} (verify)`);
  if (e.code === RISK_CONTROL || e.code === TOO_FREQUENT) return rateLimited(SITE, what);
  return new PlatformError(`${SITE} stream error: ${what}`, 'failed', true);
}

/** `ErrorX:code=710012000 stable=true message=[user invalid]` → the code and message in it. */
export function gatewayError(message: string): SiteError {
  const code = Number(/code=(\d+)/.exec(message)?.[1] ?? '0');
  const text = /message=\[([^\]]*)\]/.exec(message)?.[1] ?? message;
  return { code, message: text };
}
