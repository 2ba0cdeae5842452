import t from 'tap';
import { toFailure } from '../../../crawler/executor.js';
import { PlatformError } from '../../../crawler/platforms/types.js';

t.test('a PlatformError maps 1:1', async (t) => {
  t.strictSame(toFailure(new PlatformError('rate limited', 'failed', true, 7)), {
    status: 'failed',
    retryable: true,
    message: 'rate limited',
    retryAfterSeconds: 7,
  });
  t.strictSame(toFailure(new PlatformError('no answer within 90 s', 'timeout', true)), {
    status: 'timeout',
    retryable: true,
    message: 'no answer within 90 s',
    retryAfterSeconds: undefined,
  });
  t.strictSame(toFailure(new PlatformError('invalid API key', 'error', false)), {
    status: 'error',
    retryable: false,
    message: 'invalid API key',
    retryAfterSeconds: undefined,
  });
  t.strictSame(toFailure(new PlatformError('refused', 'failed', false, 0)), {
    status: 'failed',
    retryable: false,
    message: 'refused',
    retryAfterSeconds: 0,
  });
  const multi = toFailure(new PlatformError('line one\nline two', 'failed', true));
  t.equal(multi.message, 'line one\nline two', 'a PlatformError message is kept whole');
});

t.test('other errors are retryable failures with the first line of the message', async (t) => {
  t.strictSame(toFailure(new Error('net::ERR_CONNECTION_RESET')), {
    status: 'failed',
    retryable: true,
    message: 'crawler error: net::ERR_CONNECTION_RESET',
  });
  t.strictSame(
    toFailure(new TypeError('page.goto: Timeout 30000ms exceeded.\nCall log:\n  - navigating')),
    {
      status: 'failed',
      retryable: true,
      message: 'crawler error: page.goto: Timeout 30000ms exceeded.',
    },
  );
  t.strictSame(toFailure(new Error('')), {
    status: 'failed',
    retryable: true,
    message: 'crawler error: ',
  });
  t.equal('retryAfterSeconds' in toFailure(new Error('x')), false);
});

t.test('non-Error values are stringified', async (t) => {
  t.strictSame(toFailure('plain string'), {
    status: 'failed',
    retryable: true,
    message: 'crawler error: plain string',
  });
  t.equal(toFailure(undefined).message, 'crawler error: undefined');
  t.equal(toFailure(null).message, 'crawler error: null');
  t.equal(toFailure(42).message, 'crawler error: 42');
});

t.test('an abort reason that is a PlatformError keeps its status', async (t) => {
  const controller = new AbortController();
  controller.abort(new PlatformError('crawler node stopping', 'failed', true));
  t.strictSame(toFailure(controller.signal.reason), {
    status: 'failed',
    retryable: true,
    message: 'crawler node stopping',
    retryAfterSeconds: undefined,
  });
});
