/**
 * The chat call answered with a JSON envelope instead of a stream: DeepSeek's
 * API errors are `{"code", "msg", "data": {"biz_code", "biz_msg"}}`, mostly
 * inside a 200. Which signal each one is (web-channel.md; LLM-Red-Team/
 * deepseek-free-api): 40003 "Authorization Failed (invalid token)" is an
 * expired session, 40001/40002 a missing token (a logged-out page), a
 * HCAPTCHA_REQUIRED message the site's captcha **[status code unverified]**;
 * 401/403 on the call is a login wall whatever the body says. Pure.
 */
import { PlatformError } from '../../types.js';
import { needsHuman, rateLimited } from '../../../web/signals.js';
import { isObj } from './patch.js';
import { SITE } from './stream.js';

interface Envelope {
  code?: string;
  msg: string;
}

function envelope(body: string): Envelope {
  try {
    const b: unknown = JSON.parse(body);
    if (!isObj(b)) return { msg: body.slice(0, 200) };
    const data = isObj(b.data) ? b.data : {};
    const code = [b.code, data.biz_code].find((c) => c !== undefined && c !== 0 && c !== null);
    const msg = [b.msg, data.biz_msg].find((m) => typeof m === 'string' && m !== '');
    return { code: code === undefined ? undefined : String(code), msg: (msg as string) ?? '' };
  } catch {
    return { msg: body.trim().slice(0, 200) };
  }
}

/** The failure a non-stream answer of the chat call means. */
export function chatCallFailure(status: number, body: string): PlatformError {
  const { code, msg } = envelope(body);
  const said = [code, msg].filter(Boolean).join(' ');
  if (/HCAPTCHA|CAPTCHA/i.test(`${code} ${msg}`)) return needsHuman(SITE, `captcha: ${said}`);
  if (code === '40003') return needsHuman(SITE, `session expired: ${said}`);
  if (status === 401 || status === 403 || code === '40001' || code === '40002') {
    return needsHuman(
      SITE,
      `login wall: HTTP ${status} on the chat call${said ? ` (${said})` : ''}`,
    );
  }
  if (status === 429 || /rate|频繁/i.test(msg)) return rateLimited(SITE, said || `HTTP ${status}`);
  return new PlatformError(
    `${SITE} refused the chat call: HTTP ${status}${said ? ` ${said}` : ''}`,
    'failed',
    true,
  );
}
