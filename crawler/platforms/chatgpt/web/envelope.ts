/**
 * What a ChatGPT chat call that did not stream means, and an `error` in the
 * stream. The backend answers errors as `{"detail": "…"}` or `{"detail":
 * {"message", "code"}}` (xtekky/gpt4free `OpenaiChat.py`: `token_expired`
 * and HTTP 401 for a dead access token, HTTP 429 "You've reached our limit
 * of messages per hour", HTTP 403 "Unusual activity has been detected from
 * your device"); Cloudflare answers a call it challenges with its own HTML
 * page ("Just a moment…", a Turnstile widget from
 * challenges.cloudflare.com), HTTP 403. That page is the named `captcha`
 * outcome, never bypassed and never a parse error. The plan-limit wording
 * ("You've hit the Free plan limit") is **[inferred]** from public reports.
 * Pure.
 */
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited } from '../../../web/signals.js';
import { isObj } from './delta.js';

const SITE = 'chatgpt';
const QUOTA = /plan limit|usage cap|limit for (?:gpt|o\d)|reached your .* limit/i;
const RATE = /limit of messages|too many requests|rate.?limit|try again later/i;
const UNUSUAL = /unusual activity|suspicious activity/i;
const SESSION =
  /token_expired|authentication token has expired|invalid_token|not authenticated|log in again/i;
/** Cloudflare's challenge page, or the Turnstile the page must show a person. */
const CHALLENGE =
  /Just a moment|challenges\.cloudflare\.com|cf-turnstile|cf_chl|Verify you are human|Attention Required/i;

function detailOf(body: string): { code: string; message: string } | undefined {
  try {
    const b = JSON.parse(body) as unknown;
    if (!isObj(b)) return undefined;
    const d = b.detail ?? b.error;
    if (typeof d === 'string') return { code: '', message: d };
    if (isObj(d))
      return {
        code: typeof d.code === 'string' ? d.code : '',
        message: typeof d.message === 'string' ? d.message : '',
      };
    return undefined;
  } catch {
    return undefined;
  }
}

/** The challenge page's title, for the evidence. */
const titleOf = (html: string) =>
  /<title>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() || 'a challenge page';

/** A site error said in a message (and code), or an error frame in the stream. */
export function siteError(status: number, message: string, code = ''): PlatformError {
  const what = [code, message].filter(Boolean).join(' ') || `HTTP ${status}`;
  if (CHALLENGE.test(message))
    return needsHuman(SITE, `captcha: Cloudflare challenge on the chat call (${what})`);
  if (UNUSUAL.test(message)) return needsHuman(SITE, `blocked: ${what}`, 'verification');
  if (QUOTA.test(message)) return rateLimited(SITE, `quota: ${what}`);
  if (status === 429 || RATE.test(message)) return rateLimited(SITE, what);
  if (status === 401 || SESSION.test(code) || SESSION.test(message))
    return needsHuman(SITE, `login wall: HTTP ${status || 401} on the chat call (${what})`);
  return new PlatformError(`${SITE} refused the chat call: ${what}`, 'failed', true);
}

/** The failure a non-stream answer of the chat call means. */
export function chatCallFailure(status: number, body: string): PlatformError {
  if (/^\s*</.test(body)) {
    if (CHALLENGE.test(body))
      return needsHuman(SITE, `captcha: Cloudflare challenge on the chat call (${titleOf(body)})`);
    return needsHuman(SITE, `blocked: HTTP ${status}, ${titleOf(body)}`, 'verification');
  }
  const d = detailOf(body);
  return siteError(status, d?.message ?? body.trim().slice(0, 200), d?.code ?? '');
}
