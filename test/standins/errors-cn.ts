/** The error replies of the vendors in China (see errors.ts), from platforms.md. */
import type { ErrorReply, HttpFailKind } from './errors.js';

const RETRY = { 'retry-after': '1' };

const openai = (status: number, message: string, type: string, code: string | null) => ({
  status,
  body: { error: { message, type, param: null, code } },
});

export const CN_ERRORS: Record<string, Record<HttpFailKind, ErrorReply>> = {
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
