/**
 * Each vendor's error replies, copied from platforms.md on purpose with their
 * quirks: Gemini and xAI answer a bad key with 400, Perplexity's 401 is an
 * HTML page, Kimi's 429 has three meanings, Zhipu sends "no balance" as 429
 * without Retry-After, Anthropic's overload is 529.
 */
import { CN_ERRORS } from './errors-cn.js';
import { GEMINI_QUOTA } from './gemini-quota.js';

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
  ...CN_ERRORS,
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
    rate: GEMINI_QUOTA.rate,
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
};
