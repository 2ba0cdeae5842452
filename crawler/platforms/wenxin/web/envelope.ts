/**
 * Yiyan's errors: the chat call answers HTTP 200 with a JSON `{code, msg,
 * data}` instead of its stream (Easy-Ernie `ernie.py` checks `code != 0`
 * and reports `msg`; ../shared/web-channel.md), and the same envelope may
 * arrive as a frame inside the stream. Which signal each one is, by what it
 * says (the codes are the replica's **[inferred]**, the words Baidu's):
 * - a verification (`data.verifyType` `slide` / `rotate`, 安全验证, 拖动滑块,
 *   旋转图片): `slider_captcha` or `rotate_captcha`, a person solves it;
 * - 未登录 / 请登录 / 登录已失效: the session is gone (a login wall; an
 *   expired session when the site says it expired);
 * - 今日 … 次数已达上限: the daily quota, cooling until the next midnight in
 *   Beijing; 频繁 / 人数过多 / 稍后再试: a rate limit;
 * - Acs-Token 校验失败 and anything else: the site refused the call.
 * Pure.
 */
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited, sessionExpired } from '../../../web/signals.js';

const SITE = 'wenxin';
const RATE = /频繁|过频|人数过多|稍后再试/;
const QUOTA = /次数已达|已达上限|额度已用完/;
const EXPIRED = /已失效|已过期|重新登录/;
const LOGIN = /未登录|请登录|请先登录/;
const VERIFY = /安全验证|验证码|滑块|旋转/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Seconds until the next midnight in Beijing (UTC+8), when the daily quota comes back. */
export function untilBeijingMidnight(now = Date.now()): number {
  const day = 86_400_000;
  const beijing = now + 8 * 3_600_000;
  return Math.max(60, Math.ceil((day - (beijing % day)) / 1000));
}

/** The failure the site's `{code, msg, data}` means; `status` the call's HTTP status. */
export function failureOf(
  status: number,
  code: string,
  msg: string,
  data?: unknown,
): PlatformError {
  const what = [code, msg].filter(Boolean).join(' ') || `HTTP ${status}`;
  const verify = isObj(data) ? String(data.verifyType ?? '') : '';
  if (verify === 'rotate' || (!verify && /旋转/.test(msg)))
    return needsHuman(SITE, `rotate_captcha: ${what}`, 'verification');
  if (verify === 'slide' || VERIFY.test(msg))
    return needsHuman(SITE, `slider_captcha: ${what}`, 'verification');
  if (EXPIRED.test(msg)) return sessionExpired(SITE, `${what} on the chat call`);
  if (status === 401 || status === 403 || LOGIN.test(msg))
    return needsHuman(SITE, `login wall: ${what} on the chat call`, 'login_wall');
  if (QUOTA.test(msg)) return rateLimited(SITE, `quota: ${what}`, untilBeijingMidnight());
  if (status === 429 || RATE.test(msg)) return rateLimited(SITE, what);
  return new PlatformError(`${SITE} refused the chat call: ${what}`, 'failed', true);
}

/** The failure a non-stream answer of the chat call means. */
export function chatCallFailure(status: number, body: string): PlatformError {
  try {
    const b = JSON.parse(body) as { code?: unknown; msg?: unknown; data?: unknown };
    return failureOf(status, String(b.code ?? ''), String(b.msg ?? ''), b.data);
  } catch {
    return failureOf(status, '', body.trim().slice(0, 200));
  }
}
