/**
 * The chat call answered with something other than its stream. Google's
 * "unusual traffic" page (`/sorry/index`, a reCAPTCHA, often HTTP 429) is a
 * captcha that needs a person, never a rate limit; a 401 or 403 is a login
 * wall (after the page showed the signed-in chat the kit reports it as
 * session_expired); another 429 cools the account. Status codes and wording
 * besides the sorry page's are **[inferred]**. Pure.
 */
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited } from '../../../web/signals.js';
import { SITE } from './rpc-frames.js';

const SORRY = /unusual traffic|\/sorry\/|recaptcha|not a robot/i;

/** The body's words, without markup, for the signal's message. */
function said(body: string): string {
  const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1];
  const text = (title ?? body.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim();
  return text.slice(0, 160);
}

/** The failure a non-stream answer of the chat call means. */
export function chatCallFailure(status: number, body: string): PlatformError {
  const what = said(body) || `HTTP ${status}`;
  if (SORRY.test(body)) return needsHuman(SITE, `captcha: Google's unusual-traffic page (${what})`);
  if (status === 401 || status === 403)
    return needsHuman(SITE, `login wall: HTTP ${status} on the chat call (${what})`);
  if (status === 429) return rateLimited(SITE, what);
  return new PlatformError(`${SITE} refused the chat call: HTTP ${status} ${what}`, 'failed', true);
}
