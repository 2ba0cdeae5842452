/**
 * The one error middleware: every failure becomes the error envelope with
 * HTTP status = `code`; 5xx answers carry a request id and nothing internal.
 * Only a genuine fault (500) is logged with its stack: whatever a client can
 * cause on purpose must not be able to fill the log.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { describeError } from '../../shared/errors.js';
import { inRequest } from '../request-scope.js';

export interface Logger {
  error(...args: unknown[]): void;
  warn(...args: unknown[]): void;
}

export function errorEnvelope(logger: Logger) {
  return async function errors(ctx: Context, next: Next): Promise<void> {
    const incoming = ctx.get('x-request-id');
    const requestId = /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    try {
      await inRequest(requestId, next);
      if (ctx.status === 404 && ctx.body === undefined) {
        throw Object.assign(new Error(`no route for ${ctx.method} ${ctx.path}`), {
          status: 404,
          expose: true,
        });
      }
    } catch (err) {
      const problem = httpProblem(err);
      const hidden = problem.status >= 500 && !problem.exposed;
      const fields = { requestId, method: ctx.method, path: ctx.path };
      if (problem.status === 500) {
        logger.error(fields, 'request failed:', err);
      } else if (hidden) {
        // A dependency that is down: anyone can cause this while it lasts, so one line, no stack.
        logger.warn(fields, `request failed: ${problem.message}`);
      }
      const retryAfter = problem.data?.retryAfter;
      if (typeof retryAfter === 'number') ctx.set('Retry-After', String(retryAfter));
      ctx.status = problem.status;
      ctx.body = {
        success: false,
        code: problem.status,
        message: hidden ? `${problem.message} (request id ${requestId})` : problem.message,
        data: null,
        ...(Array.isArray(problem.data?.errors) ? { errors: problem.data.errors } : {}),
        ...(hidden ? { requestId } : {}),
      };
    }
  };
}

/**
 * Koa's own http errors (404 above, 405 and 501 from the method rules) keep
 * their status when exposable; 501 is the only 5xx a client causes by design.
 */
function httpProblem(err: unknown) {
  const e = err as { status?: unknown; expose?: unknown; message?: unknown };
  const clientCaused =
    typeof e?.status === 'number' && ((e.status >= 400 && e.status < 500) || e.status === 501);
  if (clientCaused && e.expose === true) {
    return {
      status: e.status as number,
      message: String(e.message),
      data: undefined as Record<string, unknown> | undefined,
      exposed: true,
    };
  }
  return { ...describeError(err), exposed: false };
}
