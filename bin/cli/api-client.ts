/**
 * The service's HTTP API as the CLI uses it: the API key is exchanged for an
 * access token once (kept in memory only, fetched again when it expires),
 * JSON envelopes are unwrapped, refusals and unreachable services become
 * CliErrors with their exit codes.
 */
import type { TokenData } from '../../services/shared/contracts/http.js';
import { PATHS } from '../../services/shared/contracts/http-paths.js';
import { apiError } from './api-errors.js';
import { CliError, EXIT } from './exit-codes.js';

export type Query = Record<string, string | number | boolean | undefined>;

export class ApiClient {
  private token: string | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string | undefined,
  ) {}

  /** Exchanges the API key for an access token (also what `login` verifies). */
  async accessToken(): Promise<string> {
    if (this.token) return this.token;
    if (!this.apiKey) {
      throw new CliError('no API key: run `aimon login` or set AIMON_API_KEY', EXIT.usage);
    }
    const res = await this.send(PATHS.AUTH_TOKEN, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: this.apiKey }),
    });
    const body = await readBody(res);
    if (!res.ok) {
      const err = apiError(res.status, body, 'the API key');
      // Any refusal of the key is an authentication failure, whatever its status.
      throw new CliError(err.message, EXIT.unreachable, err.details);
    }
    this.token = (body as { data: TokenData }).data.accessToken;
    return this.token;
  }

  async get<T>(path: string, query: Query = {}, what = `GET ${path}`): Promise<T> {
    return this.json<T>(withQuery(path, query), { method: 'GET' }, what);
  }

  async post<T>(path: string, payload: unknown, what = `POST ${path}`): Promise<T> {
    return this.sendJson<T>('POST', path, payload, what);
  }

  async put<T>(path: string, payload: unknown, what = `PUT ${path}`): Promise<T> {
    return this.sendJson<T>('PUT', path, payload, what);
  }

  private async sendJson<T>(method: string, path: string, payload: unknown, what: string) {
    const init = {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    };
    return this.json<T>(path, init, what);
  }

  /** A public route: no token. */
  async getPublic<T>(path: string, query: Query = {}, what = `GET ${path}`): Promise<T> {
    const res = await this.send(withQuery(path, query), { method: 'GET' });
    return unwrap<T>(res, what);
  }

  /**
   * An authenticated request whose answer the caller reads (a download, an
   * event stream); a refusal is thrown. A 401 fetches a new token once: the
   * cached one may have expired during a long wait.
   */
  async open(
    path: string,
    init: RequestInit = {},
    what = `the request to ${path}`,
  ): Promise<Response> {
    const res = await this.authed(path, init);
    if (!res.ok) throw apiError(res.status, await readBody(res), what);
    return res;
  }

  /**
   * An authenticated request whatever its answer (a protocol that reads its
   * own error statuses, as MCP does); a 401 fetches a new token once.
   */
  async authed(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await this.sendAuthed(path, init);
    if (res.status !== 401 || !this.apiKey) return res;
    await res.body?.cancel();
    this.token = undefined;
    return this.sendAuthed(path, init);
  }

  private async json<T>(path: string, init: RequestInit, what: string): Promise<T> {
    return unwrap<T>(await this.open(path, init, what), what);
  }

  private async sendAuthed(path: string, init: RequestInit): Promise<Response> {
    const token = await this.accessToken();
    // Headers of any form (a plain object, a Headers instance, pairs), plus the token.
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    return this.send(path, { ...init, headers });
  }

  private async send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(this.baseUrl + path, init);
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new CliError(`cannot reach the service at ${this.baseUrl} (${why})`, EXIT.unreachable);
    }
  }
}

async function unwrap<T>(res: Response, what: string): Promise<T> {
  const body = await readBody(res);
  if (!res.ok) throw apiError(res.status, body, what);
  return (body as { data: T }).data;
}

/** The answer as JSON, or its text when it is not JSON (a proxy's error page). */
async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
