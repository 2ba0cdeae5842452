/** `POST /api/business/auth/token`: exchange an API key for an access token. */
import { Router } from '@koa/router';
import { AppError } from '../../shared/errors.js';
import { zodProblems } from '../../shared/validation.js';
import type { Backend } from '../backend.js';
import { tokenRequestSchema } from '../../shared/contracts/http.js';
import { ok } from '../envelope.js';
import { jsonBody } from '../middleware/body.js';
import { PATHS } from '../../shared/contracts/http-paths.js';

export function authRoutes(backend: Backend, maxBodyBytes: number): Router {
  const router = new Router();
  router.post(PATHS.AUTH_TOKEN, jsonBody(maxBodyBytes), async (ctx) => {
    const body = ctx.state.body as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw AppError.invalid([{ field: 'body', message: 'must be a JSON object with apiKey' }]);
    }
    const parsed = tokenRequestSchema.safeParse(body);
    if (!parsed.success) throw AppError.invalid(zodProblems(parsed.error));
    ok(ctx, await backend.call('users.issueToken', parsed.data), 'token issued');
  });
  return router;
}
