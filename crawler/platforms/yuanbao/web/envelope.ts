/**
 * The chat call answered with a JSON body instead of a stream: Yuanbao's
 * errors are `{"error": {"code", "message"}}` (chenwr727/yuanbao-free-api
 * issue 28: HTTP 401, code 20003 "用户未注册" for a session the site no
 * longer accepts). Which signal each one is: 401/403 or 用户未注册 / 未登录
 * a login wall; a verification (验证码, 安全验证) a captcha; the location
 * verification its own outcome; 429 or a "too frequent" message a rate limit
 * (the wording from xln3/platform-v2's notice list; the codes **[inferred]**).
 * Pure.
 */
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited } from '../../../web/signals.js';
import { SITE } from './stream.js';

const RATE = /频繁|过频|人数过多|次数已达|稍后再试/;

function said(body: string): { code: string; message: string } {
  try {
    const b = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    return { code: String(b.error?.code ?? ''), message: String(b.error?.message ?? '') };
  } catch {
    return { code: '', message: body.trim().slice(0, 200) };
  }
}

/** The failure a non-stream answer of the chat call means. */
export function chatCallFailure(status: number, body: string): PlatformError {
  const { code, message } = said(body);
  const what = [code, message].filter(Boolean).join(' ') || `HTTP ${status}`;
  if (/位置验证|验证位置/.test(message)) return needsHuman(SITE, `location_verification: ${what}`);
  if (/验证码|安全验证|captcha/i.test(message)) return needsHuman(SITE, `captcha: ${what}`);
  if (status === 429 || RATE.test(message)) return rateLimited(SITE, what);
  if (status === 401 || status === 403 || code === '20003' || /未注册|未登录|登录/.test(message))
    return needsHuman(SITE, `login wall: HTTP ${status} on the chat call (${what})`);
  return new PlatformError(`${SITE} refused the chat call: HTTP ${status} ${what}`, 'failed', true);
}
