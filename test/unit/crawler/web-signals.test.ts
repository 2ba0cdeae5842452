/**
 * The needs-human signals name the help a person must give (crawler/web/signals.ts):
 * a login wall, an expired session or a verification, read from the signal's own name.
 */
import t from 'tap';
import { humanKindOf, needsHuman, sessionExpired } from '../../../crawler/web/signals.js';

t.test('the kind comes from the signal name, not the words the site added', async (t) => {
  const cases: [string, string][] = [
    ['login wall: the page shows a login dialog', 'login_wall'],
    ['login wall: HTTP 403 on the chat call (验证码登录)', 'login_wall'],
    ['session expired: 40003 Authorization Failed (invalid token)', 'session_expired'],
    ['expired session: 710012000 user invalid', 'session_expired'],
    ['session expired or invalid (unauthenticated: 登录已过期)', 'session_expired'],
    ['session_expired: HTTP 401 on the chat call', 'session_expired'],
    ['captcha: 40301 HCAPTCHA_REQUIRED', 'verification'],
    ['verification challenge instead of an answer (permission_denied)', 'verification'],
    ['location_verification: 请验证位置', 'verification'],
    ['Cloudflare interstitial', 'verification'],
  ];
  for (const [signal, kind] of cases) t.equal(humanKindOf(signal), kind, signal);
});

t.test('the verdict carries the kind and the reason names the site', async (t) => {
  t.same(needsHuman('kimi', 'captcha: x').account, {
    state: 'needs_human',
    reason: 'captcha: x (kimi)',
    kind: 'verification',
  });
  t.match(needsHuman('kimi', 'login wall: y', 'session_expired').account, {
    kind: 'session_expired',
  });
  const e = sessionExpired('deepseek', 'HTTP 401 on the chat call (40002 Missing Token)');
  t.equal(e.message, 'session_expired: HTTP 401 on the chat call (40002 Missing Token) (deepseek)');
  t.match(e, { status: 'failed', retryable: true, account: { kind: 'session_expired' } });
});
