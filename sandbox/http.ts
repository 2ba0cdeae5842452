/** The few node:http helpers the sandbox server needs: bounded bodies, JSON and HTML replies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openAiError } from './errors.js';

const MAX_BODY = 1 << 20;

/** A reply the handler gives up with: the status and the JSON body to send. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(
          new HttpError(413, openAiError('Request body too large.', 'invalid_request_error', null)),
        );
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A JSON object body, or a 400 in the OpenAI error envelope. */
export function parseJson(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // Not JSON at all: the same 400 as a JSON value that is not an object.
  }
  throw new HttpError(
    400,
    openAiError('We could not parse the JSON body of your request.', 'invalid_request_error', null),
  );
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendHtml(res: ServerResponse, html: string) {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
  });
  res.end(html);
}

/** A numeric request header (the per-request knobs), or undefined. */
export function numberHeader(req: IncomingMessage, name: string): number | undefined {
  const v = req.headers[name];
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export const sleep = (ms: number) =>
  new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
