/** The response envelope of every JSON endpoint (spec 2.1). */
import type { Context } from 'koa';

export function ok(ctx: Context, data: unknown, message = 'success'): void {
  ctx.status = 200;
  ctx.body = { success: true, code: 200, message, data };
}
