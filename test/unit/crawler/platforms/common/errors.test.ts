import t from 'tap';
import {
  classify,
  parseRetryAfter,
  vendorError,
} from '../../../../../crawler/platforms/common/errors.js';
import { splitThink } from '../../../../../crawler/platforms/common/raw-answer.js';

const c = (status: number, body: unknown, retryAfter?: string) =>
  classify(
    'p',
    vendorError(status, typeof body === 'string' ? body : JSON.stringify(body), retryAfter),
  );

t.test('status and vendor codes decide the class', async (t) => {
  const cases: [number, unknown, string, boolean][] = [
    [401, { error: { type: 'invalid_request_error', code: 'invalid_api_key' } }, 'error', false],
    [429, { error: { type: 'insufficient_quota', code: 'insufficient_quota' } }, 'error', false],
    [429, { error: { type: 'requests', code: 'rate_limit_exceeded' } }, 'failed', true],
    [429, { error: { type: 'exceeded_current_quota_error' } }, 'error', false],
    [429, { error: { type: 'engine_overloaded_error' } }, 'failed', true],
    [429, { error: { code: '1113', message: '余额不足' } }, 'error', false],
    [429, { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'quota' } }, 'failed', true],
    [
      400,
      {
        error: { code: 400, status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] },
      },
      'error',
      false,
    ],
    [
      400,
      { code: 'Client specified an invalid argument', error: 'Incorrect API key provided' },
      'error',
      false,
    ],
    [400, { code: 'Arrearage', message: 'Access denied' }, 'error', false],
    [400, { error: { type: 'content_filter', message: 'high risk' } }, 'failed', false],
    [400, { error: { type: 'invalid_request_error', message: 'bad field' } }, 'failed', false],
    [402, { error: { message: 'Insufficient Balance' } }, 'error', false],
    [403, { error: { code: 'FreeTokensExhausted', type: 'Forbidden' } }, 'error', false],
    [529, { type: 'error', error: { type: 'overloaded_error' } }, 'failed', true],
    [500, '<html><title>502 Bad Gateway</title></html>', 'failed', true],
    [504, { error: { message: 'gateway timeout' } }, 'timeout', true],
  ];
  for (const [status, body, want, retryable] of cases) {
    const err = c(status, body);
    t.match(err, { status: want, retryable }, `${status} ${JSON.stringify(body)} → ${err.message}`);
  }
});

t.test('messages name the platform and its code; HTML pages are described', async (t) => {
  t.equal(
    c(429, { error: { type: 'rate_limit_reached_error', message: 'max RPM' } }).message,
    'p rate limit (HTTP 429 rate_limit_reached_error): max RPM',
  );
  t.match(
    c(401, '<html><head><title>401 Authorization Required</title></head></html>').message,
    /HTML error page "401 Authorization Required"/,
  );
});

t.test('Retry-After, HTTP dates and Google RetryInfo', async (t) => {
  t.equal(c(429, {}, '7').retryAfterSeconds, 7);
  t.equal(
    parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    10,
  );
  t.equal(parseRetryAfter('soon'), undefined);
  t.equal(
    c(429, { error: { code: 429, status: 'RESOURCE_EXHAUSTED', details: [{ retryDelay: '38s' }] } })
      .retryAfterSeconds,
    38,
  );
});

t.test('in-stream errors: by code', async (t) => {
  t.match(classify('p', { status: 0, code: 'rate_limit_exceeded' }), {
    status: 'failed',
    retryable: true,
  });
  t.match(classify('p', { status: 0, code: 'DataInspectionFailed' }), {
    status: 'failed',
    retryable: false,
  });
  t.match(classify('p', { status: 0, code: 'InvalidApiKey' }), {
    status: 'error',
    retryable: false,
  });
  t.match(classify('p', { status: 0, code: 'server_error' }), {
    status: 'failed',
    retryable: true,
  });
});

t.test('<think> blocks move out of the answer, even with a tag missing', async (t) => {
  t.same(splitThink('<think>a</think>\n\nB[1]'), { answer: 'B[1]', reasoning: 'a' });
  t.same(splitThink('a</think>B'), { answer: 'B', reasoning: 'a' });
  t.same(splitThink('<think>never closed'), { answer: '', reasoning: 'never closed' });
  t.same(splitThink('plain'), { answer: 'plain', reasoning: '' });
});

t.test(
  'Google RESOURCE_EXHAUSTED: a spent day or plan is final, a short window is not',
  async (t) => {
    const PLAN_MSG = 'You exceeded your current quota, please check your plan and billing details.';
    const quotaFailure = (...violations: object[]) => ({
      '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
      violations,
    });
    const retryInfo = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '31s' };
    const help = { '@type': 'type.googleapis.com/google.rpc.Help', links: [] };
    const google = (message: string, ...details: object[]) => ({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED', message, details },
    });
    const perMinute = { quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' };
    const cases: [string, unknown, string, boolean][] = [
      [
        'per minute, plan words in the message',
        google(PLAN_MSG, quotaFailure(perMinute), retryInfo),
        'failed',
        true,
      ],
      [
        'per minute, tokens',
        google(
          PLAN_MSG,
          quotaFailure({
            quotaId: 'GenerateContentInputTokensPerModelPerMinute-FreeTier',
            quotaValue: '250000',
          }),
        ),
        'failed',
        true,
      ],
      ['RetryInfo alone', google(PLAN_MSG, retryInfo), 'failed', true],
      [
        'per day, with a RetryInfo beside it',
        google(
          PLAN_MSG,
          quotaFailure({
            quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
            quotaValue: '250',
          }),
          retryInfo,
        ),
        'error',
        false,
      ],
      [
        'per day among per-minute ones',
        google(
          PLAN_MSG,
          quotaFailure(perMinute, { quotaId: 'GenerateRequestsPerDayPerProjectPerModel' }),
        ),
        'error',
        false,
      ],
      [
        'per day in the metric only',
        google(
          'Quota exceeded',
          quotaFailure({
            quotaMetric: 'generativelanguage.googleapis.com/generate_requests_per_model_per_day',
          }),
        ),
        'error',
        false,
      ],
      [
        'a zero limit: the plan has none',
        google(PLAN_MSG, quotaFailure({ ...perMinute, quotaValue: '0' }), retryInfo),
        'error',
        false,
      ],
      [
        'a zero limit named in the message',
        google(
          `${PLAN_MSG}\n* Quota exceeded for metric: x, limit: 0, model: gemini-2.5-pro`,
          help,
          retryInfo,
        ),
        'error',
        false,
      ],
      ['no quota details, billing and plan in the message', google(PLAN_MSG, help), 'error', false],
      [
        'no details, free tier exhausted',
        google('Free tier exhausted for this project'),
        'error',
        false,
      ],
      [
        'no details, nothing about a plan',
        google('Resource has been exhausted (e.g. check quota).'),
        'failed',
        true,
      ],
    ];
    for (const [what, body, want, retryable] of cases) {
      const err = c(429, body);
      t.match(err, { status: want, retryable }, `${what} → ${err.message}`);
    }
    t.match(
      c(
        429,
        google(
          PLAN_MSG,
          quotaFailure(perMinute, { quotaId: 'GenerateRequestsPerDayPerProjectPerModel' }),
        ),
      ).message,
      /^p reports a billing, balance or quota problem \(HTTP 429 RESOURCE_EXHAUSTED\/GenerateRequestsPerDayPerProjectPerModel\)/,
      'the code names the quota that decided',
    );
    t.match(
      classify('p', {
        status: 0,
        code: 'RESOURCE_EXHAUSTED/GenerateRequestsPerDayPerProjectPerModel',
        quota: 'spent',
      }),
      { status: 'error', retryable: false },
      'in a stream too',
    );
  },
);
