/**
 * One HTTP attempt of a callback: POST the signed JSON body, with the spec's
 * connect and read timeouts, no redirects followed, and the response read up
 * to a size cap. The connection goes only to addresses the policy allows
 * (see address.ts). Every outcome, including errors, becomes an AttemptResult.
 */
import { Agent, request } from 'undici';
import { guardedLookup } from './address.js';
import { isSuccess } from './schedule.js';
import { ipLiteral, type AddressPolicy } from './ssrf.js';

/** Receivers answer with a status; their body is only kept as a short excerpt. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const EXCERPT_CHARS = 256;

export interface AttemptResult {
  ok: boolean;
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
  response: string | null;
  /** Cut short because this instance is stopping; the attempt does not count. */
  aborted: boolean;
}

export interface SenderOptions {
  connectTimeoutMs: number;
  readTimeoutMs: number;
  policy: AddressPolicy;
}

export class Sender {
  private readonly agent: Agent;
  private readonly stopping = new AbortController();

  constructor(private readonly o: SenderOptions) {
    this.agent = new Agent({
      connect: { timeout: o.connectTimeoutMs, lookup: guardedLookup(o.policy) },
      headersTimeout: o.readTimeoutMs,
      bodyTimeout: o.readTimeoutMs,
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    const done = (r: Omit<AttemptResult, 'latencyMs' | 'aborted'>): AttemptResult => ({
      ...r,
      latencyMs: Math.round(performance.now() - started),
      aborted: this.stopping.signal.aborted,
    });
    // A socket to a literal IP skips lookup, so such hosts are checked here.
    const literal = ipLiteral(new URL(url).hostname);
    const range = literal && this.o.policy.refusal(literal);
    if (range) {
      return done({
        ok: false,
        httpStatus: null,
        error: `address refused: ${literal} is ${range}`,
        response: null,
      });
    }
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.any([
          this.stopping.signal,
          AbortSignal.timeout(this.o.connectTimeoutMs + this.o.readTimeoutMs),
        ]),
      });
      const response = await readCapped(res.body);
      const ok = isSuccess(res.statusCode);
      const location = res.headers.location;
      const error = ok
        ? null
        : res.statusCode >= 300 && res.statusCode < 400
          ? `redirect (HTTP ${res.statusCode}${location ? ` to ${String(location)}` : ''}) not followed`
          : `HTTP ${res.statusCode}`;
      return done({ ok, httpStatus: res.statusCode, error, response });
    } catch (err) {
      return done({ ok: false, httpStatus: null, error: this.describe(err), response: null });
    }
  }

  /** Aborts attempts in flight and closes connections; safe to call twice. */
  async close(): Promise<void> {
    this.stopping.abort();
    await this.agent.destroy().catch(() => undefined);
  }

  private describe(err: unknown): string {
    const e = err as { code?: string; name?: string; message?: string; cause?: unknown };
    if (this.stopping.signal.aborted) return 'aborted: this callbacks instance stopped';
    switch (e.code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return `connect timeout after ${this.o.connectTimeoutMs} ms`;
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return `read timeout after ${this.o.readTimeoutMs} ms`;
      case 'CALLBACK_ADDRESS_REFUSED':
        return e.message ?? 'address refused';
      case 'ECONNREFUSED':
        return 'connection refused';
      case 'ENOTFOUND':
        return 'host not found';
    }
    if (e.name === 'TimeoutError')
      return `timed out after ${this.o.connectTimeoutMs + this.o.readTimeoutMs} ms`;
    if (e.cause) return this.describe(e.cause);
    return e.code ? `${e.code}: ${e.message}` : (e.message ?? String(err));
  }
}

/** Reads at most MAX_RESPONSE_BYTES and drops the connection past that. */
async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(): void },
): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_RESPONSE_BYTES) {
      body.destroy();
      break;
    }
  }
  const text = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
  return text.length > 0 ? text : null;
}
