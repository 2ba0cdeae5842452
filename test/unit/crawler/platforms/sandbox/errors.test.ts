import t from 'tap';
import {
  checkAnswer,
  errorBodyOf,
  errorForStatus,
} from '../../../../../crawler/platforms/sandbox/errors.js';
import { parseRetryAfter } from '../../../../../crawler/platforms/common/errors.js';
import { sandboxAnswer } from '../../../../../crawler/platforms/sandbox/answers.js';
import { PlatformError } from '../../../../../crawler/platforms/types.js';

const shape = (e: PlatformError) => [e.status, e.retryable, e.retryAfterSeconds];

t.test('HTTP status mapping', async (t) => {
  t.same(shape(errorForStatus(401)), ['error', false, undefined]);
  t.same(shape(errorForStatus(403)), ['error', false, undefined]);
  t.same(shape(errorForStatus(402)), ['error', false, undefined]);
  t.same(shape(errorForStatus(429, '7')), ['failed', true, 7]);
  t.same(
    shape(errorForStatus(429, null, '{"error":{"message":"quota","code":"insufficient_quota"}}')),
    ['error', false, undefined],
  );
  t.same(shape(errorForStatus(408)), ['timeout', true, undefined]);
  t.same(shape(errorForStatus(500)), ['failed', true, undefined]);
  t.same(shape(errorForStatus(503, '2')), ['failed', true, 2]);
  t.same(shape(errorForStatus(400)), ['failed', false, undefined]);
  const e = errorForStatus(500, null, '{"error":{"message":"boom","type":"server_error"}}');
  t.ok(e instanceof PlatformError);
  t.match(e.message, /HTTP 500.*boom/);
});

t.test('Retry-After and error bodies', async (t) => {
  t.equal(parseRetryAfter('3'), 3);
  t.equal(parseRetryAfter('1.2'), 2);
  t.equal(parseRetryAfter(null), undefined);
  t.equal(parseRetryAfter('soon'), undefined);
  const now = Date.parse('2025-01-01T00:00:00Z');
  t.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now), 10);
  t.equal(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now), 0);
  t.same(errorBodyOf('{"error":"x"}'), { message: 'x' });
  t.same(errorBodyOf('{"error":{"message":"m","code":1113}}'), { message: 'm', code: '1113' });
  t.same(errorBodyOf('not json'), {});
  t.same(errorBodyOf('[1]'), {});
});

t.test('empty answers and refusals are rejected', async (t) => {
  const ok = sandboxAnswer('x', 'standard');
  t.equal(checkAnswer(ok), ok);
  t.throws(() => checkAnswer({ ...ok, answerContent: ' \n' }), {
    status: 'failed',
    retryable: false,
    message: /returned no answer/,
  });
  t.throws(() => checkAnswer({ ...ok, answerContent: "I can't help with that." }), {
    status: 'failed',
    retryable: false,
    message: /refused/,
  });
});
