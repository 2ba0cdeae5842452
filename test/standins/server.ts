/**
 * The plumbing every stand-in shares: an HTTP server on 127.0.0.1:0 that
 * records requests, JSON replies, and SSE replies written the awkward way
 * real vendors' bytes arrive (events cut inside a multi-byte UTF-8 character
 * and between the two newlines that end an event, `: keep-alive` comments).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ErrorReply } from './errors.js';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** Where the request came from: a proxy's exit address when one was used. */
  remoteAddress: string;
}

export interface Standin {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export type Handler = (req: Recorded, res: ServerResponse) => Promise<void>;
/** A vendor protocol's handler and the paths it serves. */
export interface Route {
  matches(path: string): boolean;
  handle: Handler;
}

/** One server for a platform's routes (OpenAI and xAI speak two protocols on one base URL). */
export function startRoutes(routes: Route[]): Promise<Standin> {
  return startStandin(async (req, res) => {
    const route = routes.find((r) => r.matches(req.path));
    if (route) return route.handle(req, res);
    sendJson(res, 404, {
      error: { message: `no route ${req.method} ${req.path}`, type: 'not_found' },
    });
  });
}

export async function startStandin(handler: Handler): Promise<Standin> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const rec = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        remoteAddress: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
      };
      requests.push(rec);
      handler(rec, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(err) } });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json';
  res.writeHead(status, { 'content-type': type, ...headers });
  res.end(text);
}

/** One of a vendor's error replies (errors.ts), as that vendor sends it. */
export function sendError(res: ServerResponse, e: ErrorReply): void {
  sendJson(res, e.status, e.body, e.headers);
}

/** One SSE frame: optional `event:` name and a JSON (or literal) data line. */
export function frame(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

/** Writes frames as an event stream, each cut where a careless parser would break. */
export async function sendSse(
  res: ServerResponse,
  frames: string[],
  opts: { signal?: AbortSignal; headers?: Record<string, string>; keepAlive?: boolean } = {},
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...opts.headers,
  });
  for (const [i, f] of frames.entries()) {
    if (opts.keepAlive !== false && i === 1) res.write(': keep-alive\n\n');
    for (const piece of awkwardPieces(Buffer.from(f, 'utf8'))) {
      if (gone(res)) return;
      res.write(piece);
      await sleep(1);
    }
  }
  res.end();
}

/** Byte pieces of a frame: cut inside the first multi-byte character and before its last newline. */
export function awkwardPieces(bytes: Buffer): Buffer[] {
  const cuts = new Set<number>();
  const multi = bytes.findIndex((b) => b >= 0xc0);
  if (multi !== -1) cuts.add(multi + 1);
  if (bytes.length > 2) cuts.add(bytes.length - 1);
  const sorted = [...cuts].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const c of sorted) {
    pieces.push(bytes.subarray(start, c));
    start = c;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

/** Text in small deltas (by code point, so no delta holds half a character). */
export function deltas(text: string, size = 9): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** Waits until the client gives up (the `slow` failure): the reply never comes in time. */
export async function stall(res: ServerResponse, ms = 30_000): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(': keep-alive\n\n');
  const until = Date.now() + ms;
  while (!gone(res) && Date.now() < until) await sleep(50);
  res.end();
}

/** The client went away (gave up or aborted). */
const gone = (res: ServerResponse): boolean => res.destroyed || res.socket?.destroyed !== false;

/** The bearer token of a request, if any. */
export function bearer(req: Recorded): string | undefined {
  const h = req.headers.authorization;
  return typeof h === 'string' && h.startsWith('Bearer ') ? h.slice(7) : undefined;
}
