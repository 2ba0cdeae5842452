/**
 * The small HTTP kit every site replica is built on: a loopback server with a
 * route table, cookie and body helpers, a storage-state file for the
 * replica's test account, and the replica directives a test puts in a prompt
 * to make the site misbehave the way the real one does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StorageState } from '../../services/shared/contracts/accounts.js';
import { firstByte, type Drifts } from './drift.js';

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface Route {
  method: 'GET' | 'POST';
  /** Exact path, or a pattern for paths with ids. */
  path: string | RegExp;
  handle: Handler;
}

export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The peer's address (a proxy's exit when the page came through one). */
  remote: string | undefined;
  /** Epoch ms the request arrived. */
  at: number;
  /** Ms until its response finished; undefined while it runs. */
  ms?: number;
}

/** A chat call's prompt and the mode its request asked for (what the replica then runs). */
export interface Asked {
  prompt: string;
  mode: 'standard' | 'reasoning' | 'search' | 'reasoning_search';
}

export interface Site {
  url: string;
  /**
   * Every request the replica saw: path, method, headers and peer address (tests
   * assert what the page sent and from where), when it came and how long its response took once finished
   * (the benchmark subtracts the replica's own answer time from a sub task's).
   */
  readonly seen: Seen[];
  close(): Promise<void>;
}

/** Starts the replica on 127.0.0.1 (port 0: any free one). */
export async function startSite(routes: readonly Route[], port = 0): Promise<Site> {
  const seen: Site['seen'] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const entry: Seen = {
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: req.headers,
      remote: req.socket.remoteAddress,
      at: Date.now(),
    };
    seen.push(entry);
    res.on('close', () => (entry.ms = Date.now() - entry.at));
    const route = routes.find(
      (r) =>
        r.method === req.method &&
        (typeof r.path === 'string' ? r.path === url.pathname : r.path.test(url.pathname)),
    );
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    Promise.resolve(route.handle(req, res, url)).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  // Streams stay open for seconds; a closing server must not wait for idle keep-alives.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function cookies(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim());
  }
  return out;
}

export function readBody(req: IncomingMessage, max = 1 << 20): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.destroy();
        reject(new Error('body too large'));
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * SSE frames one every `latencyMs`, after the drift's first-byte delay (a slow
 * first byte is one of the drifts); stops when the client has gone.
 */
export async function sendEventStream(
  res: ServerResponse,
  frames: readonly string[],
  latencyMs: number,
  drift: Drifts,
): Promise<void> {
  await firstByte(drift);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
  for (const f of frames) {
    if (res.destroyed) return;
    res.write(f);
    await new Promise((r) => setTimeout(r, latencyMs));
  }
  res.end();
}

export function sendHtml(res: ServerResponse, html: string, status = 200): void {
  res
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
    })
    .end(html);
}

export function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    })
    .end(text);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location }).end();
}

/**
 * The storage state of a logged-in test account, as a real browser would
 * export it: the site's session cookies and local-storage entries on its origin.
 */
export function storageStateFor(
  siteUrl: string,
  session: {
    cookies?: Record<string, string>;
    localStorage?: Record<string, string>;
    /** Cookies with the Secure flag (a `__Secure-` name needs it; Chromium keeps it on 127.0.0.1). */
    secure?: boolean;
  },
): StorageState {
  const { hostname, origin } = new URL(siteUrl);
  return {
    cookies: Object.entries(session.cookies ?? {}).map(([name, value]) => ({
      name,
      value,
      domain: hostname,
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: session.secure ?? false,
      sameSite: 'Lax' as const,
    })),
    origins: session.localStorage
      ? [
          {
            origin,
            localStorage: Object.entries(session.localStorage).map(([name, value]) => ({
              name,
              value,
            })),
          },
        ]
      : [],
  };
}

/**
 * How a test makes the replica misbehave: `#replica:<variant>` in the prompt.
 * Every replica implements each of them in its site's own way.
 */
export const VARIANTS = [
  /** The chat call answers as a logged-out visitor would get it (401/403 or a sign-in redirect). */
  'login_wall',
  /** A captcha or slide challenge instead of an answer. */
  'captcha',
  /** The session has expired (the site's own "user invalid" error). */
  'expired',
  /** The site's rate or quota message. */
  'rate_limit',
  /** The answer in the site's older stream format (which the parser also reads). */
  'old_format',
  /** A frame type the parser has never seen. */
  'unknown_frame',
  /** The site refuses to answer the prompt. */
  'refusal',
] as const;
export type Variant = (typeof VARIANTS)[number];

export function variantOf(prompt: string): Variant | undefined {
  const m = /#replica:([a-z_]+)/.exec(prompt);
  return m && (VARIANTS as readonly string[]).includes(m[1]!) ? (m[1] as Variant) : undefined;
}
