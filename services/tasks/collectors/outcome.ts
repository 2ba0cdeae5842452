/**
 * Names the outcome of one web-channel attempt from what its report says:
 * an answer, or a failure with its status, retryability, message and the
 * account verdict it carried. Pure.
 *
 * The verdict decides first (needs_human: a captcha when the message says so,
 * else a login wall; cooling: a rate limit). A failure without a verdict (a
 * site that does not give one, like the sandbox) is read from its message.
 * Then the classes signals.ts defines: a refusal; a final failure that is not
 * retried (the driver could not read the page: an unknown frame, a missing
 * control, an empty answer) is drift, and so is any message naming an
 * unrecognised page or a control, retryable or not. Everything else (browser
 * and network trouble, server errors) is `error`. A signal name this file has
 * never seen therefore lands in `drift` when it is final and in `error` when
 * it is retried.
 */
import type { Failure } from '../../shared/contracts/status.js';
import type { ReportedVerdict, WebOutcome } from '../../shared/contracts/web-outcomes.js';

export interface AttemptReport {
  answered: boolean;
  failure?: Failure;
  accountVerdict?: ReportedVerdict;
}

const CAPTCHA = /captcha|challenge|verif|slide|interstitial|cloudflare|验证|人机/i;
const LOGIN = /login|log in|logged out|sign[- ]?in|session expired|登录/i;
const RATE = /rate limit|rate or quota|quota|too many|too frequent|频繁|HTTP 429/i;
const REFUSED = /refused to answer|refused the request/i;
const DRIFT = /unexpected .*page|unrecogni[sz]ed|control_missing|control_unchanged|drift/i;

export function classifyAttempt(a: AttemptReport): WebOutcome {
  if (a.answered) return 'answered';
  const failure = a.failure;
  if (!failure) return 'error';
  const text = failure.message;
  if (a.accountVerdict === 'needs_human') return CAPTCHA.test(text) ? 'captcha' : 'login_wall';
  if (a.accountVerdict === 'cooling') return 'rate_limited';
  if (DRIFT.test(text)) return 'drift';
  if (CAPTCHA.test(text)) return 'captcha';
  if (LOGIN.test(text)) return 'login_wall';
  if (RATE.test(text)) return 'rate_limited';
  if (failure.status === 'timeout') return 'timeout';
  if (REFUSED.test(text)) return 'refused';
  if (failure.status === 'failed' && !failure.retryable) return 'drift';
  return 'error';
}
