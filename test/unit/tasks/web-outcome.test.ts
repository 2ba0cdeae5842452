/**
 * The outcome name of a web attempt, from the failures the drivers raise
 * (crawler/web/signals.ts and the sites' own messages): the account verdict
 * decides first, then the message, then the failure's class.
 */
import t from 'tap';
import { classifyAttempt } from '../../../services/tasks/collectors/outcome.js';
import type { Failure } from '../../../services/shared/contracts/status.js';

const failed = (message: string, retryable = false, status: Failure['status'] = 'failed') => ({
  answered: false,
  failure: { status, retryable, message },
});

t.test('an answer', async (t) => {
  t.equal(classifyAttempt({ answered: true }), 'answered');
});

t.test('the account verdict decides first', async (t) => {
  const human = (message: string) => ({
    ...failed(message, true),
    accountVerdict: 'needs_human' as const,
  });
  t.equal(
    classifyAttempt(human('login wall: the page shows its login modal (kimi)')),
    'login_wall',
  );
  t.equal(classifyAttempt(human('expired session: code 710022004 (doubao)')), 'login_wall');
  t.equal(classifyAttempt(human('captcha: slider (kimi)')), 'captcha');
  t.equal(classifyAttempt(human('verification challenge instead of an answer (kimi)')), 'captcha');
  t.equal(
    classifyAttempt({
      ...failed('rate or quota limit on doubao: too busy', true, 'error'),
      accountVerdict: 'cooling',
    }),
    'rate_limited',
  );
});

t.test('a failure without a verdict is read from its message', async (t) => {
  t.equal(classifyAttempt(failed('login wall: the platform asks to log in')), 'login_wall');
  t.equal(classifyAttempt(failed('sandbox rate limit (HTTP 429)', true)), 'rate_limited');
  t.equal(classifyAttempt(failed('please complete the captcha', true)), 'captcha');
});

t.test('drift: named signals, and any final failure the driver cannot name', async (t) => {
  t.equal(classifyAttempt(failed('control_missing: doubao deep-thinking')), 'drift');
  t.equal(classifyAttempt(failed('control_unchanged: kimi web-search')), 'drift');
  t.equal(classifyAttempt(failed('unrecognised deepseek stream format: event finish')), 'drift');
  t.equal(
    classifyAttempt(failed('unexpected page: the Kimi chat UI did not appear', true)),
    'drift',
    'an unrecognised page is drift even while it is retried',
  );
  t.equal(classifyAttempt(failed('the platform returned no answer (empty content)')), 'drift');
  t.equal(
    classifyAttempt(failed('site_shape_changed: yuanbao composer')),
    'drift',
    'a signal name never seen before, final: drift',
  );
});

t.test('refusals, timeouts and everything else', async (t) => {
  t.equal(
    classifyAttempt(failed('deepseek refused to answer: 你好，这个问题我暂时无法回答')),
    'refused',
  );
  t.equal(classifyAttempt(failed('sandbox refused the request (HTTP 400)')), 'refused');
  t.equal(classifyAttempt(failed('no answer within 60 s', true, 'timeout')), 'timeout');
  t.equal(classifyAttempt(failed('browser error: Target closed', true)), 'error');
  t.equal(classifyAttempt(failed('sandbox server error (HTTP 500)', true)), 'error');
  t.equal(classifyAttempt(failed('a new kind of trouble', true)), 'error', 'unknown and retried');
  t.equal(classifyAttempt({ answered: false }), 'error', 'a report with neither');
});
