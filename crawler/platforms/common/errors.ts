/**
 * Failure classification for the vendors' APIs, pure. Every vendor has its
 * own error envelope and its own codes; `vendorError` reads any of them and
 * `classify` maps status + code onto our three final statuses:
 *
 * - credentials, permission, billing, balance or quota → `error`, not retried;
 * - rate limits (429), overload (503/529, `engine_overloaded_error`,
 *   `ServerOverloaded`), 5xx and in-stream server errors → `failed`, retried,
 *   honouring the platform's Retry-After;
 * - 408/504 → `timeout`, retried;
 * - any other refusal of the request (400, 404, 410, content filters) → `failed`.
 *
 * The quirks live in the patterns below: Gemini and xAI answer a bad key with
 * 400, Kimi's 429 means rate limit, no balance or overload depending on its
 * `type`, Zhipu sends "no balance" (`1113`) as 429, Perplexity's 401 is an
 * HTML page.
 */
import { PlatformError } from '../types.js';

export interface VendorError {
  /** HTTP status; 0 for an error event inside a 200 stream. */
  status: number;
  /** The vendor's own code (or type / gRPC status), as shown in errorMessage. */
  code?: string;
  message?: string;
  retryAfterSeconds?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;

/** Seconds from a Retry-After header (delta-seconds or an HTTP date). */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(v)) return Math.ceil(Number(v));
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Google's `RetryInfo.retryDelay` ("38s") among an error's details. */
function retryDelayOf(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    const m =
      isObj(d) && typeof d.retryDelay === 'string' && /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay);
    if (m) return Math.ceil(Number(m[1]));
  }
  return undefined;
}

/** Google's `ErrorInfo.reason` (API_KEY_INVALID, …) among an error's details. */
function reasonOf(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details) if (isObj(d) && typeof d.reason === 'string') return d.reason;
  return undefined;
}

/** The code and message of a parsed error body in any of the vendors' envelopes. */
export function errorFields(body: unknown): { code?: string; message?: string; retry?: number } {
  if (!isObj(body)) return {};
  // Tencent Cloud native: {Response:{Error:{Code,Message}}}
  if (isObj(body.Response) && isObj(body.Response.Error)) {
    const e = body.Response.Error;
    return { code: text(e.Code), message: text(e.Message) };
  }
  // Baidu legacy: {error_code, error_msg}
  if (body.error_code !== undefined) {
    return { code: text(body.error_code), message: text(body.error_msg) };
  }
  if (isObj(body.error)) {
    const e = body.error;
    // Gemini: {error:{code:<http>, status, message, details}}: the gRPC status and reason name it.
    if (typeof e.status === 'string') {
      const reason = reasonOf(e.details);
      return {
        code: reason ? `${e.status}/${reason}` : e.status,
        message: text(e.message),
        retry: retryDelayOf(e.details),
      };
    }
    // OpenAI style {error:{message,type,code}} (Anthropic's type-only too).
    const code = text(e.code);
    const type = text(e.type);
    return {
      code: code && type && code !== type && !/^\d+$/.test(code) ? code : (type ?? code),
      message: text(e.message),
    };
  }
  // xAI: {code:"…", error:"…"}; DashScope native: {code, message, request_id}.
  return { code: text(body.code), message: text(body.error) ?? text(body.message) };
}

/** The VendorError of an HTTP error response body (JSON, HTML or anything else). */
export function vendorError(
  status: number,
  bodyText: string,
  retryAfter?: string | null,
): VendorError {
  let fields: ReturnType<typeof errorFields> = {};
  try {
    fields = errorFields(JSON.parse(bodyText));
  } catch {
    const title = /<title>([^<]*)<\/title>/i.exec(bodyText)?.[1]?.trim();
    if (/<html|<!doctype/i.test(bodyText))
      fields = { message: `HTML error page${title ? ` "${title}"` : ''}` };
    else if (bodyText.trim()) fields = { message: bodyText.trim().slice(0, 200) };
  }
  const e: VendorError = { status };
  if (fields.code !== undefined) e.code = fields.code;
  if (fields.message !== undefined) e.message = fields.message;
  const seconds = parseRetryAfter(retryAfter) ?? fields.retry;
  if (seconds !== undefined) e.retryAfterSeconds = seconds;
  return e;
}

const BILLING =
  /insufficient_quota|exceeded_current_quota|quota_?exceeded|billing|balance|overdue|credits|tokens_?exhausted|arrearage|^1113$|^130[89]$/i;
const BAD_KEY =
  /api[ _-]?key|API_KEY_INVALID|invalid_authentication|authentication|unauthori[sz]ed|invalid_iam_token|AuthFailure|InvalidApiKey/i;
const OVERLOAD = /overload|UNAVAILABLE|server_unavailable/i;
const RATE = /rate|throttl|too_many|RESOURCE_EXHAUSTED|^1302$/i;
/** Content moderation: a refusal, whatever status carries it. */
const MODERATED = /content_filter|DataInspectionFailed|sensitive|SAFETY|PROHIBITED_CONTENT/i;

type Kind = 'auth' | 'billing' | 'rate' | 'overload' | 'server' | 'timeout' | 'refused';

function kindOf(e: VendorError): Kind {
  const code = e.code ?? '';
  const both = `${code} ${e.message ?? ''}`;
  const s = e.status;
  // A 429's message can mention billing in passing; there only the code decides.
  if (s === 402 || BILLING.test(code) || (s !== 0 && s !== 429 && BILLING.test(both)))
    return 'billing';
  if (s === 401 || s === 403) return 'auth';
  if (MODERATED.test(code)) return 'refused';
  if (s === 400 && BAD_KEY.test(both)) return 'auth';
  if (s === 429) return OVERLOAD.test(code) ? 'overload' : 'rate';
  if (s === 408 || s === 504) return 'timeout';
  if (s === 503 || s === 529 || OVERLOAD.test(code)) return 'overload';
  if (s >= 500) return 'server';
  if (s === 0) {
    if (BAD_KEY.test(code)) return 'auth';
    return RATE.test(code) ? 'rate' : 'server';
  }
  return 'refused';
}

const WHAT: Record<Kind, string> = {
  auth: 'rejected the credentials',
  billing: 'reports a billing, balance or quota problem',
  rate: 'rate limit',
  overload: 'is overloaded',
  server: 'server error',
  timeout: 'timed out',
  refused: 'refused the request',
};

/** The PlatformError for a vendor error, naming the platform and its own code. */
export function classify(platform: string, e: VendorError): PlatformError {
  const kind = kindOf(e);
  const where = [e.status ? `HTTP ${e.status}` : 'in stream', e.code].filter(Boolean).join(' ');
  const message = `${platform} ${WHAT[kind]} (${where})${e.message ? `: ${e.message}` : ''}`;
  switch (kind) {
    case 'auth':
    case 'billing':
      return new PlatformError(message, 'error', false);
    case 'refused':
      return new PlatformError(message, 'failed', false);
    case 'timeout':
      return new PlatformError(message, 'timeout', true, e.retryAfterSeconds);
    default:
      return new PlatformError(message, 'failed', true, e.retryAfterSeconds);
  }
}

/** The error for an abort: `timeout` when the job's signal (or our deadline) ended it. */
export function timeoutError(what = 'no answer before the deadline'): PlatformError {
  return new PlatformError(`platform timed out: ${what}`, 'timeout', true);
}

/** A refusal (content filter, safety stop): a final `failed`, retrying changes nothing. */
export function refusalError(platform: string, why: string): PlatformError {
  return new PlatformError(`${platform} refused to answer: ${why}`, 'failed', false);
}
