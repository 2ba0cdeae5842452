/**
 * Method rules of every route (RFC 9110 15.5.6 and 15.6.2): a method the
 * server knows but the path does not allow is a 405 with `Allow`; a method the
 * server does not know at all (QUERY, PROPFIND, …) is a 501 on every path.
 * Both are the caller's doing, so they are answered in the envelope and never
 * logged as failures.
 */
import { Router } from '@koa/router';
import type { Context, Next } from 'koa';

/**
 * The methods of RFC 9110 plus PATCH. CONNECT never reaches Koa (Node answers
 * it on its own socket event), so it is left out.
 */
const KNOWN_METHODS = ['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE', 'TRACE'];

class MethodProblem extends Error {
  readonly expose = true;

  constructor(
    readonly status: 405 | 501,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One `allowedMethods` for every router, placed before them all: @koa/router
 * gathers the routes each router matched on `ctx.matched`, so the last word on
 * a request belongs here, after all routers ran. `throw: false` is what makes
 * the router set `Allow`; it reads only its own list of known methods.
 */
export function methodRules() {
  const allowed = new Router({ methods: KNOWN_METHODS }).allowedMethods({ throw: false });
  return async function methods(ctx: Context, next: Next): Promise<void> {
    await allowed(ctx as Parameters<typeof allowed>[0], next);
    if (ctx.body != null || (ctx.status !== 405 && ctx.status !== 501)) return;
    if (ctx.status === 501 && ctx.response.get('Allow') === '') ctx.remove('Allow');
    throw ctx.status === 405
      ? new MethodProblem(
          405,
          `method ${ctx.method} is not allowed here; allowed: ${ctx.response.get('Allow')}`,
        )
      : new MethodProblem(501, `method ${ctx.method} is not implemented by this service`);
  };
}
