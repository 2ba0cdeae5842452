/**
 * The sandbox platform's local server (node:http, loopback by default): an
 * OpenAI Chat Completions stand-in (the wire format is in stream.ts and
 * request.ts) and a consumer chat site, both answering with
 * `sandboxAnswer(prompt, mode)`. A fixture, not a driver: the crawler's
 * `sandbox` drivers talk to it over HTTP like to any vendor.
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
 * prompt directives `#fail:<kind>[x<N>]` and `#vary:<percent>` (see directives.ts), and a global
 * `failureRate` drawn from a seeded PRNG (per request `X-Sandbox-Failure-Rate`).
 * `stats.requests` records every request (remote address, path, prompt, time).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Mode } from '../services/shared/platforms.js';
import { modeFromFlags } from './answers.js';
import type { FailKind } from './directives.js';
import { FAILURE_REPLIES, INVALID_KEY, LOGIN_REQUIRED, openAiError } from './errors.js';
import { HttpError, numberHeader, parseJson, readBody, sendHtml, sendJson, sleep } from './http.js';
import { chatPageHtml, loginPageHtml } from './page.js';
import { modeOfRequest, promptOfMessages, sandboxModel } from './request.js';
import { replyFor, Simulation, type Reply, type SimulationKnobs } from './simulation.js';
import { completionBody, groupPieces, streamPieces, type WireOptions } from './stream.js';

/** The simulation's knobs (`latencyMs` spread over the stream's writes), and the server's own. */
export interface SandboxServerOptions extends SimulationKnobs {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind; default 127.0.0.1. */
  host?: string;
  /**
   * Send each answer stream in at most this many writes (0, the default: one
   * write per piece, about a hundred). The bytes are the same either way; the
   * pipeline benchmark uses a few writes so that the stand-in's own CPU, which
   * a real platform spends on its own machines, leaves the cores to the pipeline.
   */
  streamWrites?: number;
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

export async function startSandboxServer(
  options: SandboxServerOptions = {},
): Promise<SandboxServer> {
  const host = options.host ?? '127.0.0.1';
  const simulation = new Simulation(options);
  const requests: SandboxRequestRecord[] = [];
  let sequence = 0;

  const wire = (model: string, finishReason: Reply['finishReason']): WireOptions => ({
    id: `chatcmpl-sandbox-${++sequence}`,
    created: Math.floor(Date.now() / 1000),
    model,
    finishReason,
  });

  const failureFor = (prompt: string, mode: Mode, req: IncomingMessage) =>
    simulation.failureFor(prompt, mode, numberHeader(req, 'x-sandbox-failure-rate'));
  const latencyFor = (prompt: string, req: IncomingMessage) =>
    simulation.latencyFor(prompt, numberHeader(req, 'x-sandbox-latency-ms'));

  /** Streams an answer; resolves when done or when the client went away. */
  async function stream(res: ServerResponse, reply: Reply, model: string, latencyMs: number) {
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
      streamPieces(reply.answer, wire(model, reply.finishReason)),
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
    const failure = failureFor(prompt, mode, req);
    if (answerFailure(failure, req, res, rec, INVALID_KEY)) return;
    const reply = replyFor(prompt, mode, failure, simulation.withoutLead(prompt, mode));
    const model = typeof body.model === 'string' && body.model ? body.model : sandboxModel(mode);
    const latency = latencyFor(prompt, req);
    rec.status = 200;
    if (body.stream === true) {
      await stream(res, reply, model, latency);
    } else {
      await sleep(latency);
      sendJson(res, 200, completionBody(reply.answer, wire(model, reply.finishReason)));
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
        const [status, errorBody] = FAILURE_REPLIES[failure];
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
    const failure = failureFor(prompt, mode, req);
    if (answerFailure(failure, req, res, rec, LOGIN_REQUIRED)) return;
    rec.status = 200;
    const reply = replyFor(prompt, mode, failure, simulation.withoutLead(prompt, mode));
    await stream(res, reply, sandboxModel(mode), latencyFor(prompt, req));
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
      simulation.reset();
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
