/**
 * The API over fetch: the envelope unwrapped, the Bearer token added, errors
 * as ApiError with the 400's per-field `errors` list. A 401 ends the session
 * (the token expired or was never valid) and goes back to sign-in.
 */
import { matchesPath, PATHS } from '../../services/shared/contracts/http-paths.js';
import { session } from './session.js';
import type { FieldProblem, TokenData } from './types.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldProblem[] = [],
  ) {
    super(message);
  }
}

let onUnauthorized: () => void = () => undefined;

export function whenUnauthorized(fn: () => void): void {
  onUnauthorized = fn;
}

type Envelope<T> = {
  success?: boolean;
  message?: string;
  data?: T;
  errors?: FieldProblem[];
} | null;

/** The answer's envelope; null when the body is not JSON (a proxy's error page). */
const envelopeOf = <T>(res: Response) => res.json().catch(() => null) as Promise<Envelope<T>>;

const refusal = (res: Response, body: Envelope<unknown>) =>
  new ApiError(res.status, body?.message ?? res.statusText, body?.errors ?? []);

export async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await send(path, init);
  const body = await envelopeOf<T>(res);
  if (!res.ok || !body?.success) throw refusal(res, body);
  return body.data as T;
}

export const get = <T>(path: string) => call<T>(path);

export const post = <T>(path: string, data: unknown) =>
  call<T>(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(data),
  });

/** The raw response, for files (exports, raw evidence); errors as for `call`. */
export async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const token = session.token();
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(path, { ...init, headers });
  if (res.status === 401 && token) {
    session.clear();
    onUnauthorized();
  }
  return res;
}

export async function signIn(apiKey: string): Promise<void> {
  const data = await post<TokenData>(PATHS.AUTH_TOKEN, { apiKey });
  session.set(data.accessToken);
}

/**
 * Saves a response as a file through a blob link: the export routes need the
 * Bearer header, which a plain link cannot send.
 */
export async function download(path: string, fallbackName: string): Promise<void> {
  const res = await send(path);
  if (!res.ok) throw refusal(res, await envelopeOf(res));
  const named = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = named ?? fallbackName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Screenshot and raw evidence URLs are absolute on the public base address; the
 * dashboard loads them from its own origin (the CSP allows only that).
 */
export function sameOrigin(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, location.origin);
    const served = [PATHS.SCREENSHOT, PATHS.SUBTASK_RAW].some((p) => matchesPath(p, u.pathname));
    return served ? u.pathname : null;
  } catch {
    return null;
  }
}
