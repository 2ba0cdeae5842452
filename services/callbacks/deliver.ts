/**
 * One HTTP attempt of a callback: POST the signed JSON body, with the spec's
 * connect and read timeouts, no redirects followed, and the response read up
 * to a size cap. The connection goes only to addresses the policy allows
 * (see address.ts). Every outcome, including errors, becomes an AttemptResult.
 */
import { Agent, buildConnector, request } from 'undici';
import { guardedLookup } from '../shared/webhooks/address.js';
import { isSuccess } from '../shared/webhooks/schedule.js';
import { ipLiteral, type AddressPolicy } from '../shared/webhooks/ssrf.js';

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
  private readonly stopping = new AbortController();
  private readonly connector: buildConnector.connector;

  constructor(private readonly o: SenderOptions) {
    this.connector = buildConnector({
      timeout: o.connectTimeoutMs,
      lookup: guardedLookup(o.policy),
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
      const error = `address refused: ${literal} is ${range}`;
      return done({ ok: false, httpStatus: null, error, response: null });
    }
    const deadline = new Deadline(this.o.connectTimeoutMs, this.o.readTimeoutMs);
    // One connection per attempt, so the deadline can tell connecting from reading.
    const agent = new Agent({
      connect: (opts, callback) => {
        this.connector(opts, (err, socket) => {
          if (!err) deadline.connected();
          // undici's callback type splits the error and success cases.
          (callback as (e: Error | null, s: typeof socket) => void)(err, socket);
        });
      },
    });
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.any([this.stopping.signal, deadline.signal]),
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
      const error = this.stopping.signal.aborted
        ? 'aborted: this callbacks instance stopped'
        : (deadline.expired() ?? describe(err));
      return done({ ok: false, httpStatus: null, error, response: null });
    } finally {
      deadline.clear();
      await agent.destroy().catch(() => undefined);
    }
  }

  /** Aborts attempts in flight; safe to call twice. */
  close(): void {
    this.stopping.abort();
  }
}

/**
 * The spec's two timeouts with millisecond precision (undici's own timers are
 * coarse below a second): connecting within `connectMs`, then the whole
 * answer within `readMs` of connecting.
 */
class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  private phase: 'connect' | 'read' = 'connect';

  constructor(
    private readonly connectMs: number,
    private readonly readMs: number,
  ) {
    this.timer = setTimeout(() => this.controller.abort(), connectMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  connected(): void {
    clearTimeout(this.timer);
    this.phase = 'read';
    this.timer = setTimeout(() => this.controller.abort(), this.readMs);
  }

  /** What expired, or undefined when neither did. */
  expired(): string | undefined {
    if (!this.controller.signal.aborted) return undefined;
    return this.phase === 'connect'
      ? `connect timeout after ${this.connectMs} ms`
      : `read timeout after ${this.readMs} ms`;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: unknown };
  switch (e.code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connect timeout';
    case 'CALLBACK_ADDRESS_REFUSED':
      return e.message ?? 'address refused';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
      return 'host not found';
  }
  if (e.cause) return describe(e.cause);
  return e.code ? `${e.code}: ${e.message}` : (e.message ?? String(err));
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
