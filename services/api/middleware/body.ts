/**
 * Reads a JSON request body with the checks DESIGN.md fixes: 415 unless JSON,
 * 413 over the size limit (checked before and while reading), 400 when the
 * JSON is malformed or its text is not Unicode (json-text.ts). Never a 500
 * for anything a client sends.
 */
import type { Context, Next } from 'koa';
import { AppError } from '../../shared/errors.js';
import { parseJsonBody } from '../json-text.js';

export function jsonBody(maxBytes: number) {
  return async function body(ctx: Context, next: Next): Promise<void> {
    if (!ctx.is('application/json')) {
      throw new AppError('Content-Type must be application/json', 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const declared = Number(ctx.get('content-length') || '0');
    if (declared > maxBytes) throw tooLarge(maxBytes);
    const parsed = parseJsonBody(await readLimited(ctx, maxBytes));
    if (!parsed.ok) throw AppError.invalid(parsed.errors);
    ctx.state.body = parsed.value;
    await next();
  };
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(`request body is larger than ${maxBytes} bytes`, 413, 'PAYLOAD_TOO_LARGE');
}

/**
 * Buffers at most `maxBytes`. Past that it keeps consuming but discards, so the
 * client still receives the 413 instead of a reset connection.
 */
async function readLimited(ctx: Context, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.req) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size <= maxBytes) chunks.push(buf);
    }
  } catch {
    // The client hung up mid-body: nobody reads the answer, and it is no fault of ours to log.
    throw AppError.invalid([
      { field: 'body', message: 'the connection closed before the body ended' },
    ]);
  }
  if (size > maxBytes) {
    ctx.set('Connection', 'close');
    throw tooLarge(maxBytes);
  }
  if (size === 0) throw AppError.invalid([{ field: 'body', message: 'must be a JSON object' }]);
  return Buffer.concat(chunks, size);
}
