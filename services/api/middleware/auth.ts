/** Bearer-token authentication and the per-user rate limit of protected routes. */
import type { Context, Next } from 'koa';
import type { Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import { matchesPath } from '../../shared/contracts/http-paths.js';
import type { TokenVerifier } from '../../shared/tokens.js';
import type { RateLimiter } from '../ratelimit.js';

export interface AuthOptions {
  verifier: () => Promise<TokenVerifier>;
  issuer: string;
  audience: string;
  clock: Clock;
  /** Requests to this path (`:param` form) may carry the token as `?access_token=` instead of the header. */
  queryTokenPath?: string;
}

export function requireToken(o: AuthOptions) {
  return async function auth(ctx: Context, next: Next): Promise<void> {
    const header = ctx.get('authorization') || queryToken(ctx, o.queryTokenPath);
    if (!header) throw AppError.unauthorized('missing token: send Authorization: Bearer <token>');
    const match = /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header);
    if (!match)
      throw AppError.unauthorized('invalid token: expected "Authorization: Bearer <token>"');
    const verifier = await o.verifier();
    ctx.state.userId = await verifier.verify(match[1]!, o, o.clock.now());
    await next();
  };
}

/** Must run after requireToken (keys by user) or on public routes (keys by address). */
export function rateLimit(limiter: RateLimiter) {
  return async function limit(ctx: Context, next: Next): Promise<void> {
    const key = ctx.state.userId !== undefined ? `user:${ctx.state.userId}` : `ip:${ctx.ip}`;
    const waitSeconds = limiter.take(key);
    if (waitSeconds > 0) throw AppError.rateLimited('rate limit exceeded: slow down', waitSeconds);
    await next();
  };
}

function queryToken(ctx: Context, path: string | undefined): string {
  const token = ctx.query.access_token;
  const allowed = path !== undefined && matchesPath(path, ctx.path);
  return allowed && typeof token === 'string' && token ? `Bearer ${token}` : '';
}
