/**
 * How platform failures map to PlatformError (status + retryable), shared by
 * the sandbox's API and web drivers. Pure.
 *
 * - 401 / 403 / 402, and 429 with a quota code: `error` (credentials, billing,
 *   quota), not retryable.
 * - 429: `failed`, retryable, with the Retry-After seconds.
 * - 408: `timeout`, retryable. 5xx: `failed`, retryable.
 * - other 4xx (a request the platform will never accept): `failed`, not retryable.
 */
import { PlatformError } from '../types.js';
import { parseRetryAfter, timeoutError } from '../common/errors.js';

export { timeoutError };
import { isRefusal } from './answers.js';
import type { Answer } from '../types.js';

/** The `error.message` / `error.code` of an OpenAI-style error body, when it is one. */
export function errorBodyOf(text: string): { message?: string; code?: string } {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } | string };
    if (typeof body.error === 'string') return { message: body.error };
    const e = body.error;
    if (!e || typeof e !== 'object') return {};
    return {
      message: typeof e.message === 'string' ? e.message : undefined,
      code:
        typeof e.code === 'string'
          ? e.code
          : typeof e.code === 'number'
            ? String(e.code)
            : undefined,
    };
  } catch {
    return {};
  }
}

const QUOTA_CODES = /insufficient_quota|quota|billing|balance|exhausted/i;

/** The PlatformError for a non-2xx HTTP status. */
export function errorForStatus(
  status: number,
  retryAfterHeader?: string | null,
  bodyText = '',
): PlatformError {
  const { message, code } = errorBodyOf(bodyText);
  const detail = message ? `: ${message}` : '';
  const retryAfter = parseRetryAfter(retryAfterHeader);
  if (status === 401 || status === 403) {
    return new PlatformError(
      `platform rejected the credentials (HTTP ${status})${detail}`,
      'error',
      false,
    );
  }
  if (status === 402) {
    return new PlatformError(`platform billing problem (HTTP 402)${detail}`, 'error', false);
  }
  if (status === 429) {
    if (code && QUOTA_CODES.test(code)) {
      return new PlatformError(`platform quota exhausted (HTTP 429)${detail}`, 'error', false);
    }
    return new PlatformError(`platform rate limit (HTTP 429)${detail}`, 'failed', true, retryAfter);
  }
  if (status === 408) {
    return new PlatformError(
      `platform request timeout (HTTP 408)${detail}`,
      'timeout',
      true,
      retryAfter,
    );
  }
  if (status >= 500) {
    return new PlatformError(
      `platform server error (HTTP ${status})${detail}`,
      'failed',
      true,
      retryAfter,
    );
  }
  return new PlatformError(
    `platform refused the request (HTTP ${status})${detail}`,
    'failed',
    false,
  );
}

/** Rejects answers that must not be recorded as answers (empty, refusal). */
export function checkAnswer(answer: Answer): Answer {
  const text = answer.answerContent.trim();
  if (text === '') {
    throw new PlatformError('the platform returned no answer (empty content)', 'failed', false);
  }
  if (isRefusal(text)) {
    throw new PlatformError(
      `the platform refused to answer: ${text.slice(0, 200)}`,
      'failed',
      false,
    );
  }
  return answer;
}
