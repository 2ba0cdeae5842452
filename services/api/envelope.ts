/** The response envelope of every JSON endpoint (spec 2.1). */
import type { Context } from 'koa';

const okEnvelope = (data: unknown, message: string) => ({
  success: true,
  code: 200,
  message,
  data,
});

export function ok(ctx: Context, data: unknown, message = 'success'): void {
  ctx.status = 200;
  ctx.body = okEnvelope(data, message);
}

/** The same envelope, serialised once, for answers served many times from memory. */
export function serialisedOk(data: unknown, message = 'success'): Buffer {
  return Buffer.from(JSON.stringify(okEnvelope(data, message)));
}

export function okSerialised(ctx: Context, body: Buffer): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = body;
}
