/**
 * The one error middleware: every failure becomes the error envelope with
 * HTTP status = `code`; 5xx answers carry a request id and nothing internal.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { describeError } from '../../shared/errors.js';

export interface Logger {
  error(...args: unknown[]): void;
}

export function errorEnvelope(logger: Logger) {
  return async function errors(ctx: Context, next: Next): Promise<void> {
    const incoming = ctx.get('x-request-id');
    const requestId = /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw Object.assign(new Error(`no route for ${ctx.method} ${ctx.path}`), {
          status: 404,
          expose: true,
        });
      }
    } catch (err) {
      const problem = httpProblem(err);
      if (problem.status >= 500)
        logger.error(`request ${requestId} ${ctx.method} ${ctx.path} failed:`, err);
      const retryAfter = problem.data?.retryAfter;
      if (typeof retryAfter === 'number') ctx.set('Retry-After', String(retryAfter));
      ctx.status = problem.status;
      ctx.body = {
        success: false,
        code: problem.status,
        message:
          problem.status >= 500 ? `${problem.message} (request id ${requestId})` : problem.message,
        data: null,
        ...(Array.isArray(problem.data?.errors) ? { errors: problem.data.errors } : {}),
        ...(problem.status >= 500 ? { requestId } : {}),
      };
    }
  };
}

/** Koa's own http errors (405 from the router, 404 above) keep their status when exposable. */
function httpProblem(err: unknown) {
  const e = err as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true) {
    return {
      status: e.status,
      message: String(e.message),
      data: undefined as Record<string, unknown> | undefined,
    };
  }
  return describeError(err);
}
