/**
 * Each vendor's error replies, copied from platforms.md on purpose with their
 * quirks: Gemini and xAI answer a bad key with 400, Perplexity's 401 is an
 * HTML page, Kimi's 429 has three meanings, Zhipu sends "no balance" as 429
 * without Retry-After, Anthropic's overload is 529.
 */
export interface ErrorReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The kinds that fail before any answer byte (the others are stream-level). */
export type HttpFailKind = 'auth' | 'billing' | 'rate' | 'overload' | 'server';

const RETRY = { 'retry-after': '1' };

const openai = (status: number, message: string, type: string, code: string | null) => ({
  status,
  body: { error: { message, type, param: null, code } },
});

export const ERRORS: Record<string, Record<HttpFailKind, ErrorReply>> = {
  openai: {
    auth: openai(
      401,
      'Incorrect API key provided: sk-***',
      'invalid_request_error',
      'invalid_api_key',
    ),
    billing: openai(
      429,
      'You exceeded your current quota',
      'insufficient_quota',
      'insufficient_quota',
    ),
    rate: {
      ...openai(429, 'Rate limit reached', 'requests', 'rate_limit_exceeded'),
      headers: RETRY,
    },
    overload: openai(503, 'Slow down', 'server_error', null),
    server: openai(500, 'The server had an error', 'server_error', null),
  },
  perplexity: {
    auth: {
      status: 401,
      body: '<html><head><title>401 Authorization Required</title></head><body><center><h1>401 Authorization Required</h1></center><hr><center>openresty</center></body></html>',
    },
    billing: {
      status: 402,
      body: { error: { message: 'Insufficient credits', type: 'insufficient_quota', code: 402 } },
    },
    rate: {
      status: 429,
      body: { error: { message: 'Rate limit exceeded', type: 'rate_limit_exceeded', code: 429 } },
      headers: RETRY,
    },
    overload: {
      status: 503,
      body: { error: { message: 'Service unavailable', type: 'server_unavailable', code: 503 } },
    },
    server: { status: 500, body: { error: { message: 'Internal server error.' } } },
  },
  deepseek: {
    auth: openai(
      401,
      'Authentication Fails, Your api key: ****abcd is invalid',
      'authentication_error',
      'invalid_request_error',
    ),
    billing: openai(402, 'Insufficient Balance', 'unknown_error', 'invalid_request_error'),
    rate: {
      ...openai(429, 'Rate Limit Reached', 'rate_limit_error', 'rate_limit_reached'),
      headers: RETRY,
    },
    overload: openai(503, 'Server Overloaded', 'server_error', 'server_overloaded'),
    server: openai(500, 'Server Error', 'server_error', 'server_error'),
  },
  kimi: {
    auth: {
      status: 401,
      body: { error: { message: 'Invalid Authentication', type: 'invalid_authentication_error' } },
    },
    billing: {
      status: 429,
      body: {
        error: {
          message: 'Your account is suspended, please check your plan and billing details',
          type: 'exceeded_current_quota_error',
        },
      },
    },
    rate: {
      status: 429,
      body: { error: { message: 'max RPM reached', type: 'rate_limit_reached_error' } },
      headers: RETRY,
    },
    overload: {
      status: 429,
      body: {
        error: { message: 'The engine is currently overloaded', type: 'engine_overloaded_error' },
      },
    },
    server: { status: 500, body: { error: { message: 'server error', type: 'server_error' } } },
  },
  zhipu: {
    auth: { status: 401, body: { error: { code: '1000', message: '身份验证失败。' } } },
    billing: {
      status: 429,
      body: { error: { code: '1113', message: '余额不足或无可用资源包,请充值。' } },
    },
    rate: {
      status: 429,
      body: { error: { code: '1302', message: '您当前使用该API的并发数过高' } },
    },
    overload: {
      status: 503,
      body: { error: { code: '1305', message: '当前API请求过多，请稍后重试。' } },
    },
    server: { status: 500, body: { error: { code: '500', message: '内部错误' } } },
  },
  hunyuan: {
    auth: openai(401, 'SecretId 不存在', 'invalid_request_error', 'AuthFailure.SecretIdNotFound'),
    billing: openai(403, '账户欠费', 'invalid_request_error', 'ResourceUnavailable.InArrears'),
    rate: {
      ...openai(429, '请求频率超限', 'rate_limit_error', 'RequestLimitExceeded'),
      headers: RETRY,
    },
    overload: openai(503, '服务繁忙', 'server_error', 'ResourceUnavailable.ServiceBusy'),
    server: openai(500, '内部错误', 'server_error', 'InternalError'),
  },
  qianfan: {
    auth: {
      status: 401,
      body: {
        error: {
          code: 'invalid_iam_token',
          message: 'IAM Certification failed',
          type: 'invalid_request_error',
        },
        id: 'as-1',
      },
    },
    billing: {
      status: 403,
      body: {
        error: {
          code: 'account_overdue',
          message: 'account overdue',
          type: 'invalid_request_error',
        },
        id: 'as-2',
      },
    },
    rate: {
      status: 429,
      body: {
        error: {
          code: 'rpm_rate_limit_exceeded',
          message: 'Rate limit reached for RPM',
          type: 'rate_limit_exceeded',
        },
        id: 'as-3',
      },
      headers: RETRY,
    },
    overload: {
      status: 503,
      body: {
        error: { code: 'service_unavailable', message: 'service busy', type: 'server_error' },
        id: 'as-4',
      },
    },
    server: {
      status: 500,
      body: {
        error: { code: 'internal_error', message: 'internal error', type: 'server_error' },
        id: 'as-5',
      },
    },
  },
  xai: {
    auth: {
      status: 400,
      body: {
        code: 'Client specified an invalid argument',
        error:
          'Incorrect API key provided: xa***. You can obtain an API key from https://console.x.ai.',
      },
    },
    billing: {
      status: 403,
      body: { code: 'permission-denied', error: 'Your team has used all available credits.' },
    },
    rate: {
      status: 429,
      body: { code: 'resource-exhausted', error: 'Too many requests' },
      headers: RETRY,
    },
    overload: { status: 503, body: { code: 'unavailable', error: 'Service overloaded' } },
    server: { status: 500, body: { code: 'internal', error: 'Internal error' } },
  },
  ark: {
    auth: {
      status: 401,
      body: {
        error: {
          code: 'AuthenticationError',
          message: "The API key doesn't exist.",
          param: '',
          type: 'Unauthorized',
        },
      },
    },
    billing: {
      status: 403,
      body: {
        error: {
          code: 'FreeTokensExhausted',
          message: 'free tokens used up',
          param: '',
          type: 'Forbidden',
        },
      },
    },
    rate: {
      status: 429,
      body: {
        error: {
          code: 'RateLimitExceeded.EndpointRPMExceeded',
          message: 'RPM exceeded',
          param: '',
          type: 'TooManyRequests',
        },
      },
      headers: RETRY,
    },
    overload: {
      status: 429,
      body: {
        error: {
          code: 'ServerOverloaded',
          message: 'server overloaded',
          param: '',
          type: 'TooManyRequests',
        },
      },
    },
    server: {
      status: 500,
      body: {
        error: {
          code: 'InternalServiceError',
          message: 'internal error',
          param: '',
          type: 'InternalServerError',
        },
      },
    },
  },
  anthropic: {
    auth: {
      status: 401,
      body: {
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
        request_id: 'req_1',
      },
    },
    billing: {
      status: 402,
      body: {
        type: 'error',
        error: { type: 'billing_error', message: 'credit balance too low' },
        request_id: 'req_2',
      },
    },
    rate: {
      status: 429,
      body: {
        type: 'error',
        error: {
          type: 'rate_limit_error',
          message: 'Number of requests has exceeded your rate limit',
        },
        request_id: 'req_3',
      },
      headers: RETRY,
    },
    overload: {
      status: 529,
      body: {
        type: 'error',
        error: { type: 'overloaded_error', message: 'Overloaded' },
        request_id: 'req_4',
      },
    },
    server: {
      status: 500,
      body: {
        type: 'error',
        error: { type: 'api_error', message: 'Internal server error' },
        request_id: 'req_5',
      },
    },
  },
  gemini: {
    auth: {
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'API_KEY_INVALID',
              domain: 'googleapis.com',
            },
          ],
        },
      },
    },
    billing: {
      status: 403,
      body: {
        error: { code: 403, message: 'Billing account disabled', status: 'PERMISSION_DENIED' },
      },
    },
    rate: {
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'You exceeded your current quota',
          status: 'RESOURCE_EXHAUSTED',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
              violations: [
                {
                  quotaMetric: 'generate_content_requests',
                  quotaId: 'PerMinute',
                  quotaValue: '10',
                },
              ],
            },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' },
          ],
        },
      },
    },
    overload: {
      status: 503,
      body: {
        error: {
          code: 503,
          message: 'The model is overloaded. Please try again later.',
          status: 'UNAVAILABLE',
        },
      },
    },
    server: {
      status: 500,
      body: {
        error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' },
      },
    },
  },
  dashscope: {
    auth: {
      status: 401,
      body: { code: 'InvalidApiKey', message: 'Invalid API-key provided.', request_id: 'r1' },
    },
    billing: {
      status: 400,
      body: {
        code: 'Arrearage',
        message: 'Access denied, please make sure your account is in good standing.',
        request_id: 'r2',
      },
    },
    rate: {
      status: 429,
      body: {
        code: 'Throttling.RateQuota',
        message: 'Requests throttling triggered.',
        request_id: 'r3',
      },
      headers: RETRY,
    },
    overload: {
      status: 503,
      body: { code: 'ServiceUnavailable', message: 'service busy', request_id: 'r4' },
    },
    server: {
      status: 500,
      body: { code: 'InternalError', message: 'internal error', request_id: 'r5' },
    },
  },
};
