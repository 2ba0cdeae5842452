/**
 * What a Qwen chat call that did not stream means, and an error frame in the
 * stream. chat.qwen.ai answers errors in a JSON envelope
 * `{"success": false, "data": {"code", "details"}}`, often with HTTP 200 and
 * the real status in `x-actual-status-code` (`Unauthorized` for a dead
 * session, `RateLimited`, `CHAT_NOT_FOUND`); its risk control says
 * `RGV587_ERROR::SM`; a call without the page's `bx-ua` / `bx-umidtoken`
 * gets the WAF's HTML page (a slider) with HTTP 200 (public 2025–2026
 * clients' notes). That page is the named `captcha` outcome (a slider) or
 * `blocked` (access denied), never a parse error. The domestic site's
 * envelope `{"success": false, "errorCode", "errorMsg"}` is read alike
 * (LLM-Red-Team/qwen-free-api `checkResult`). The codes' exact spellings
 * beyond those and the quota wording are **[inferred]**. Pure.
 */
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited, refused, sessionExpired } from '../../../web/signals.js';
import { isObj, str } from './sources.js';

export const SITE = 'qwen';

const RATE = /RateLimit|rate.?limit|too many|频繁|过频|稍后再试/i;
const QUOTA = /quota|usage limit|daily limit|额度|次数已用完|上限/i;
const SESSION = /Unauthorized|token.*(expired|invalid)|未登录|登录已过期|login/i;
const RISK = /RGV587_ERROR/;
const FILTERED = /data_inspection_failed|DataInspectionFailed|inappropriate content|不合规/i;
/** The WAF's page: a slider to drag, or a plain refusal of access. */
const SLIDER = /滑块|拖动|slide|nc_|baxia|验证/i;

function envelopeOf(body: string): { code: string; details: string } | undefined {
  try {
    const b = JSON.parse(body) as unknown;
    if (!isObj(b)) return undefined;
    const data = isObj(b.data) ? b.data : isObj(b.error) ? b.error : b;
    const code = str(data.code) || str(b.errorCode) || str(data.errorCode);
    const details = str(data.details) || str(data.message) || str(b.errorMsg) || str(b.message);
    return code || details ? { code, details } : undefined;
  } catch {
    return undefined;
  }
}

/** The WAF's HTML page as its named outcome: a slider is a captcha, else access is blocked. */
export function wafPage(html: string): PlatformError {
  const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() || 'an HTML page';
  return SLIDER.test(html)
    ? needsHuman(SITE, `captcha: the WAF's slider page instead of the stream (${title})`)
    : needsHuman(SITE, `blocked: the WAF refused the chat call (${title})`, 'verification');
}

/** A site error said in the envelope's (or an error frame's) code and details. */
export function siteError(code: string, details: string, status = 200): PlatformError {
  const what = [code, details].filter(Boolean).join(' ') || `HTTP ${status}`;
  if (RISK.test(code) || RISK.test(details))
    return needsHuman(SITE, `blocked: the site's risk control (${what})`, 'verification');
  if (FILTERED.test(code) || FILTERED.test(details)) return refused(SITE, what);
  if (QUOTA.test(details)) return rateLimited(SITE, `quota: ${what}`);
  if (status === 429 || RATE.test(code) || RATE.test(details)) return rateLimited(SITE, what);
  if (status === 403) return needsHuman(SITE, `login wall: HTTP 403 on the chat call (${what})`);
  if (status === 401 || SESSION.test(code) || SESSION.test(details))
    return sessionExpired(SITE, `HTTP ${status === 200 ? 401 : status} on the chat call (${what})`);
  return new PlatformError(`${SITE} refused the chat call: ${what}`, 'failed', true);
}

/** The failure a non-stream answer of the chat call means. */
export function chatCallFailure(status: number, body: string): PlatformError {
  if (/^\s*</.test(body)) return wafPage(body);
  const e = envelopeOf(body);
  return siteError(e?.code ?? '', e?.details ?? body.trim().slice(0, 200), status);
}
