/**
 * What the CLI says about a refused request (pure): the envelope's message,
 * then every entry of its `errors` (a 400 lists every violated rule), and
 * the exit code the refusal maps to.
 */
import { CliError, EXIT, type ExitCode } from './exit-codes.js';

interface ErrorEnvelope {
  message?: unknown;
  errors?: unknown;
  requestId?: unknown;
}

/**
 * `status`: the HTTP status; `body`: the parsed JSON answer, or its text when
 * it was not JSON; `what`: the request, as the object of "the service refused …".
 * A 400's message already joins its rules, so with rules the headline is the
 * refusal alone and each rule is printed once, on its own line.
 */
export function apiError(status: number, body: unknown, what: string): CliError {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as ErrorEnvelope;
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  const message =
    typeof envelope.message === 'string' && envelope.message !== ''
      ? envelope.message
      : text || 'no message';
  const details = Array.isArray(envelope.errors) ? envelope.errors.map(describeProblem) : [];
  const requestId = typeof envelope.requestId === 'string' ? envelope.requestId : undefined;
  const refused = `the service refused ${what} (HTTP ${status})`;
  const headline = details.length > 0 ? `${refused}:` : `${refused}: ${message}`;
  if (requestId && !headline.includes(requestId)) details.push(`request id: ${requestId}`);
  return new CliError(headline, exitCodeOfStatus(status), details);
}

function describeProblem(problem: unknown): string {
  if (typeof problem !== 'object' || problem === null) return String(problem);
  const { field, message } = problem as { field?: unknown; message?: unknown };
  return typeof field === 'string' && field !== ''
    ? `${field}: ${String(message)}`
    : String(message);
}

/** 401 and 5xx say the service or the credentials are the trouble; other refusals, the request. */
export function exitCodeOfStatus(status: number): ExitCode {
  if (status === 401 || status >= 500) return EXIT.unreachable;
  return EXIT.usage;
}
