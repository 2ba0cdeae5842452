/**
 * The chat call answered with a JSON body instead of a stream: ChatGLM's
 * errors are `{code | status, message}` (glm-free-api `checkResult`; an
 * expired refresh token is 40102, a bad signature HTTP 400, per
 * ../shared/web-channel.md). Which signal each one is: 401, 40102 or a login
 * word a login wall (after the page showed the logged-in chat the kit
 * reports it as session_expired); a verification a captcha; 429 or a
 * "too frequent" / daily-limit message a rate or quota limit; a second live
 * stream of the account (ChatGLM allows one) a short cooling. The codes and
 * wordings besides 40102 are **[inferred]**. Pure.
 */
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited } from '../../../web/signals.js';
import { SITE } from './stream.js';

const RATE = /频繁|过频|稍后再试|too many/i;
const QUOTA = /上限|次数已用完|额度/;
/** The account's one live stream is still running (a person, or a page left streaming). */
const BUSY = /正在生成|进行中|上一个回答/;
/** How long an account cools when its one stream slot was taken. */
export const BUSY_COOLING_S = 60;

function said(body: string): { code: string; message: string } {
  try {
    const b = JSON.parse(body) as { code?: unknown; status?: unknown; message?: unknown };
    return {
      code: String(b.code ?? b.status ?? ''),
      message: typeof b.message === 'string' ? b.message : '',
    };
  } catch {
    return { code: '', message: body.trim().slice(0, 200) };
  }
}

/** The failure a non-stream answer of the chat call means. */
export function chatCallFailure(status: number, body: string): PlatformError {
  const { code, message } = said(body);
  const what = [code, message].filter(Boolean).join(' ') || `HTTP ${status}`;
  if (/验证码|安全验证|滑块|captcha/i.test(message)) return needsHuman(SITE, `captcha: ${what}`);
  if (BUSY.test(message))
    return rateLimited(SITE, `one live stream per account: ${what}`, BUSY_COOLING_S);
  if (status === 429 || RATE.test(message) || QUOTA.test(message)) return rateLimited(SITE, what);
  if (status === 401 || code === '401' || code === '40102' || /登录|token/i.test(message))
    return needsHuman(SITE, `login wall: HTTP ${status} on the chat call (${what})`);
  return new PlatformError(`${SITE} refused the chat call: HTTP ${status} ${what}`, 'failed', true);
}
