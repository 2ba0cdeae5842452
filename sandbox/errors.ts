/**
 * The error replies the sandbox sends, in OpenAI's envelope
 * `{error: {message, type, param, code}}` with OpenAI's own wording and codes,
 * so the shared classification of the vendors' errors reads them.
 */
export function openAiError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

export type OpenAiError = ReturnType<typeof openAiError>;

/** The simulated platform failures that are an HTTP error reply. */
export const FAILURE_REPLIES: Record<'429' | '500' | '503', [number, OpenAiError]> = {
  '429': [
    429,
    openAiError(
      'Rate limit reached for requests. Please try again in 1s.',
      'requests',
      'rate_limit_exceeded',
    ),
  ],
  '500': [
    500,
    openAiError('The server had an error while processing your request.', 'server_error', null),
  ],
  '503': [
    503,
    openAiError(
      'The engine is currently overloaded, please try again later.',
      'server_error',
      null,
    ),
  ],
};

export const INVALID_KEY = openAiError(
  'Incorrect API key provided. You can find your API key in your account settings.',
  'invalid_request_error',
  'invalid_api_key',
);

/** What the chat site's own endpoint answers when the session is gone. */
export const LOGIN_REQUIRED = {
  error: { message: 'Your session has expired. Log in again.', code: 'login_required' },
};
