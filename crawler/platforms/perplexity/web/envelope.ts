/**
 * The chat call answered without a stream. Perplexity sits behind
 * Cloudflare: a challenge is an HTML page (`Just a moment...`, a
 * `challenges.cloudflare.com` script, ../shared/web-channel.md), the named
 * `captcha` outcome, never bypassed. Its own errors are JSON
 * (`{"detail": …}` / `{"error_code", "message"}` **[inferred]**): 401 or a
 * login message a login wall (after the page showed the logged-in chat the
 * kit reports it as session_expired); 429 or a limit message a rate or
 * query limit (the Pro-search quota among them). Pure.
 */
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited } from '../../../web/signals.js';
import { SITE } from './stream.js';

const CLOUDFLARE = /Just a moment|challenges\.cloudflare\.com|cf-chl|Attention Required/i;
const LIMIT = /rate.?limit|too many|limit reached|reached your limit|quota/i;

function said(body: string): string {
  try {
    const b = JSON.parse(body) as { detail?: unknown; message?: unknown; error_code?: unknown };
    const detail = typeof b.detail === 'string' ? b.detail : JSON.stringify(b.detail ?? '');
    return [b.error_code, b.message, b.detail === undefined ? '' : detail]
      .filter((x) => typeof x === 'string' && x !== '' && x !== '""')
      .join(' ');
  } catch {
    return body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200);
  }
}

/** The failure a non-stream answer of the chat call means. */
export function chatCallFailure(status: number, body: string): PlatformError {
  if (CLOUDFLARE.test(body))
    return needsHuman(SITE, `captcha: a Cloudflare challenge on the chat call (HTTP ${status})`);
  const what = said(body) || `HTTP ${status}`;
  if (status === 429 || LIMIT.test(what)) return rateLimited(SITE, what);
  if (status === 401 || status === 403 || /log ?in|sign ?in|unauthori[sz]ed|session/i.test(what))
    return needsHuman(SITE, `login wall: HTTP ${status} on the chat call (${what})`);
  return new PlatformError(`${SITE} refused the chat call: HTTP ${status} ${what}`, 'failed', true);
}
