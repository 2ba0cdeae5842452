/**
 * The sandbox platform's local server (node:http, loopback by default): an
 * OpenAI-compatible API stand-in and a consumer chat site, both answering
 * with `sandboxAnswer(prompt, mode)`.
 *
 * Routes:
 * - `POST /v1/chat/completions` (Bearer auth, any non-empty key), streaming or not.
 * - `GET /` chat page (or the login wall with `loginWall` / `?login=1`), `GET /login`.
 * - `POST /web/chat` `{prompt, reasoning, search}`: the page's SSE stream (no auth).
 * - `GET /healthz`, `GET /favicon.ico` (204).
 * - `GET /ip`: the caller's address as plain text, like a "what is my IP"
 *   service (the proxy checks use it to see a port's exit address).
 *
 * Knobs: `latencyMs` (total answer time spread over the stream's writes;
 * per request `#latency:<ms>` in the prompt or `X-Sandbox-Latency-Ms`),
 * prompt directives `#fail:<kind>[x<N>]` (see directives.ts), and a global
 * `failureRate` drawn from a seeded PRNG (per request `X-Sandbox-Failure-Rate`).
 * `stats.requests` records every request (remote address, path, prompt, time).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Mode } from '../../../services/shared/platforms.js';
import type { Answer } from '../types.js';
import { modeFlags, modeFromFlags, mulberry32, REFUSAL_TEXT, sandboxAnswer } from './answers.js';
import { parseDirectives, type FailKind } from './directives.js';
import { completionBody, groupPieces, streamPieces } from './stream.js';
import { chatPageHtml, loginPageHtml } from './page.js';

export interface SandboxServerOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind; default 127.0.0.1. */
  host?: string;
  /** Total answer time in ms, spread over the stream's writes (default 0). */
  latencyMs?: number;
  /**
   * Send each answer stream in at most this many writes (0, the default: one
   * write per piece, about a hundred). The bytes are the same either way; the
   * pipeline benchmark uses a few writes so that the stand-in's own CPU, which
   * a real platform spends on its own machines, leaves the cores to the pipeline.
   */
  streamWrites?: number;
  /** Share of chat requests (0..1) that fail with 500, 503 or 429 (default 0). */
  failureRate?: number;
  /** Seed of the PRNG behind failureRate (default 1). */
  seed?: number;
  /** Serve the login wall instead of the chat page at `GET /` (an expired session). */
  loginWall?: boolean;
}

export interface SandboxRequestRecord {
  /** Epoch ms when the request arrived. */
  at: number;
  method: string;
  path: string;
  /** `req.socket.remoteAddress`: proves which address (e.g. a proxy's) the traffic came from. */
  remoteAddress: string;
  channel: 'api' | 'web' | 'page';
  prompt?: string;
  mode?: Mode;
  /** HTTP status sent (undefined while the request is pending or stalled). */
  status?: number;
  /** The failure the sandbox simulated, if any. */
  failure?: FailKind;
}

export interface SandboxStats {
  requests: SandboxRequestRecord[];
  /** Requests whose path (without query) is `path`. */
  byPath(path: string): SandboxRequestRecord[];
}

export interface SandboxServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  stats: SandboxStats;
  /** Forgets stats and the `x<N>` attempt counters. */
  reset(): void;
  /** Stops listening and drops every open connection (stalled ones included). */
  close(): Promise<void>;
}

const MODEL_MODES: Record<string, Mode> = {
  'sandbox-standard': 'standard',
  'sandbox-reasoning': 'reasoning',
  'sandbox-search': 'search',
  'sandbox-reasoning-search': 'reasoning_search',
};

/** The mode an API request asks for: the model name, then explicit flags. */
export function modeOfRequest(body: {
  model?: unknown;
  reasoning?: unknown;
  web_search?: unknown;
}): Mode {
  const base = typeof body.model === 'string' ? MODEL_MODES[body.model] : undefined;
  let { reasoning, search } = modeFlags(base ?? 'standard');
  if (typeof body.reasoning === 'boolean') reasoning = body.reasoning;
  if (typeof body.web_search === 'boolean') search = body.web_search;
  return modeFromFlags(reasoning, search);
}

/** The text of the last user message (string content or text parts). */
export function promptOfMessages(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown } | null;
    if (!m || m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      return m.content
        .map((p: { type?: unknown; text?: unknown }) =>
          p && p.type === 'text' && typeof p.text === 'string' ? p.text : '',
        )
        .join('');
    }
  }
  return undefined;
}

function openAiError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

const FAILURE_BODIES: Record<'429' | '500' | '503', [number, ReturnType<typeof openAiError>]> = {
  '429': [
    429,
    openAiError(
      'Rate limit reached for requests. Please try again in 1s.',
      'requests',
      'rate_limit_exceeded',
    ),
  ],
  '500': [
    500,
    openAiError('The server had an error while processing your request.', 'server_error', null),
  ],
  '503': [
    503,
    openAiError(
      'The engine is currently overloaded, please try again later.',
      'server_error',
      null,
    ),
  ],
};

const INVALID_KEY = openAiError(
  'Incorrect API key provided. You can find your API key in your account settings.',
  'invalid_request_error',
  'invalid_api_key',
);

const MAX_BODY = 1 << 20;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
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

function parseJson(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new HttpError(
    400,
    openAiError('We could not parse the JSON body of your request.', 'invalid_request_error', null),
  );
}

function sendJson(
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

function sendHtml(res: ServerResponse, html: string) {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
  });
  res.end(html);
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

function numberHeader(req: IncomingMessage, name: string): number | undefined {
  const v = req.headers[name];
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export async function startSandboxServer(
  options: SandboxServerOptions = {},
): Promise<SandboxServer> {
  const host = options.host ?? '127.0.0.1';
  const rnd = mulberry32(options.seed ?? 1);
  const attempts = new Map<string, number>();
  const requests: SandboxRequestRecord[] = [];
  let sequence = 0;

  /** The failure to simulate for this chat request, if any. */
  function decideFailure(prompt: string, mode: Mode, req: IncomingMessage): FailKind | undefined {
    const { fail } = parseDirectives(prompt);
    if (fail) {
      if (fail.times === undefined) return fail.kind;
      const key = `${mode}\u0000${prompt}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      return n <= fail.times ? fail.kind : undefined;
    }
    const rate = numberHeader(req, 'x-sandbox-failure-rate') ?? options.failureRate ?? 0;
    if (rate <= 0) return undefined;
    // Two draws per request whatever the outcome, so the sequence depends only on the order.
    const hit = rnd() < rate;
    const kind = (['500', '503', '429'] as const)[Math.floor(rnd() * 3)]!;
    return hit ? kind : undefined;
  }

  function latencyOf(prompt: string, req: IncomingMessage): number {
    return Math.max(
      0,
      parseDirectives(prompt).latencyMs ??
        numberHeader(req, 'x-sandbox-latency-ms') ??
        options.latencyMs ??
        0,
    );
  }

  function answerFor(prompt: string, mode: Mode, failure: FailKind | undefined): Answer {
    const empty: Answer = {
      answerContent: '',
      referenceList: [],
      citationList: [],
      reasoningProcess: null,
      recommendedQuestions: [],
      mediaContent: [],
    };
    if (failure === 'empty') return empty;
    if (failure === 'refuse') return { ...empty, answerContent: REFUSAL_TEXT };
    return sandboxAnswer(prompt, mode);
  }

  /** Streams an answer; resolves when done or when the client went away. */
  async function stream(res: ServerResponse, answer: Answer, model: string, latencyMs: number) {
    let closed = false;
    res.on('close', () => (closed = true));
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    const pieces = groupPieces(
      streamPieces(answer, {
        id: `chatcmpl-sandbox-${++sequence}`,
        created: Math.floor(Date.now() / 1000),
        model,
      }),
      options.streamWrites ?? 0,
    );
    // Piece i goes out at start + latency * (i + 1) / n: the whole answer takes latencyMs.
    const start = Date.now();
    for (const [i, piece] of pieces.entries()) {
      await sleep(start + (latencyMs * (i + 1)) / pieces.length - Date.now());
      if (closed) return;
      res.write(piece);
    }
    res.end();
  }

  /** `#fail:timeout`: keep the request open and say nothing until the client gives up. */
  function stall(req: IncomingMessage) {
    req.socket.setTimeout(0);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, rec: SandboxRequestRecord) {
    rec.channel = 'api';
    const text = await readBody(req);
    let parsed: Record<string, unknown> | HttpError;
    try {
      parsed = parseJson(text);
    } catch (err) {
      parsed = err as HttpError;
    }
    const body = parsed instanceof HttpError ? {} : parsed;
    const prompt = promptOfMessages(body.messages);
    const mode = modeOfRequest(body);
    rec.mode = mode;
    if (prompt !== undefined) rec.prompt = prompt;
    // Credentials are checked before anything else about the request, as vendors do.
    if (!/^Bearer\s+\S+/i.test(req.headers.authorization ?? ''))
      throw new HttpError(401, INVALID_KEY);
    if (parsed instanceof HttpError) throw parsed;
    if (prompt === undefined || prompt.trim() === '') {
      throw new HttpError(
        400,
        openAiError(
          "'messages' must contain a user message with text.",
          'invalid_request_error',
          null,
        ),
      );
    }
    const failure = decideFailure(prompt, mode, req);
    if (answerFailure(failure, req, res, rec, INVALID_KEY)) return;
    const answer = answerFor(prompt, mode, failure);
    const model =
      typeof body.model === 'string' && body.model
        ? body.model
        : `sandbox-${mode.replace('_', '-')}`;
    const latency = latencyOf(prompt, req);
    rec.status = 200;
    if (body.stream === true) {
      await stream(res, answer, model, latency);
    } else {
      await sleep(latency);
      sendJson(
        res,
        200,
        completionBody(answer, {
          id: `chatcmpl-sandbox-${++sequence}`,
          created: Math.floor(Date.now() / 1000),
          model,
        }),
      );
    }
  }

  /**
   * Answers a failure directive the same way on both faces; true when the
   * request is already answered (or deliberately left stalled).
   */
  function answerFailure(
    failure: FailKind | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    rec: SandboxRequestRecord,
    unauthorized: unknown,
  ): boolean {
    if (failure) rec.failure = failure;
    switch (failure) {
      case '401':
      case 'login':
        throw new HttpError(401, unauthorized);
      case '429':
      case '500':
      case '503': {
        const [status, errorBody] = FAILURE_BODIES[failure];
        rec.status = status;
        sendJson(res, status, errorBody, failure === '429' ? { 'retry-after': '1' } : {});
        return true;
      }
      case 'timeout':
        stall(req);
        return true;
      default:
        return false;
    }
  }

  async function handleWeb(req: IncomingMessage, res: ServerResponse, rec: SandboxRequestRecord) {
    rec.channel = 'web';
    const body = parseJson(await readBody(req));
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    const mode = modeFromFlags(body.reasoning === true, body.search === true);
    rec.prompt = prompt;
    rec.mode = mode;
    if (prompt.trim() === '') {
      throw new HttpError(400, {
        error: { message: 'Type a message first.', code: 'empty_prompt' },
      });
    }
    const failure = decideFailure(prompt, mode, req);
    const loginRequired = {
      error: { message: 'Your session has expired. Log in again.', code: 'login_required' },
    };
    if (answerFailure(failure, req, res, rec, loginRequired)) return;
    rec.status = 200;
    await stream(
      res,
      answerFor(prompt, mode, failure),
      `sandbox-${mode.replace('_', '-')}`,
      latencyOf(prompt, req),
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    const rec: SandboxRequestRecord = {
      at: Date.now(),
      method: req.method ?? 'GET',
      path: url.pathname,
      remoteAddress: req.socket.remoteAddress ?? '',
      channel: 'page',
    };
    requests.push(rec);
    try {
      const route = `${req.method} ${url.pathname}`;
      if (route === 'POST /v1/chat/completions') return await handleApi(req, res, rec);
      if (route === 'POST /web/chat') return await handleWeb(req, res, rec);
      if (req.method === 'GET' || req.method === 'HEAD') {
        rec.status = 200;
        if (url.pathname === '/') {
          const wall = options.loginWall === true || url.searchParams.has('login');
          return sendHtml(res, wall ? loginPageHtml() : chatPageHtml());
        }
        if (url.pathname === '/login') return sendHtml(res, loginPageHtml());
        if (url.pathname === '/healthz') return sendJson(res, 200, { ok: true });
        if (url.pathname === '/ip') {
          res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
          return res.end(rec.remoteAddress.replace(/^::ffff:/, ''));
        }
        if (url.pathname === '/favicon.ico') {
          rec.status = 204;
          res.writeHead(204).end();
          return;
        }
      }
      throw new HttpError(
        404,
        openAiError(
          `Unknown request URL: ${req.method} ${url.pathname}.`,
          'invalid_request_error',
          null,
        ),
      );
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500;
      const body =
        err instanceof HttpError
          ? err.body
          : openAiError('The sandbox failed unexpectedly.', 'server_error', null);
      rec.status = status;
      if (!res.headersSent && !res.destroyed) sendJson(res, status, body);
      else res.destroy();
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    stats: {
      requests,
      byPath: (path) => requests.filter((r) => r.path === path),
    },
    reset() {
      requests.length = 0;
      attempts.clear();
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
