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
 * HTML page, and Gemini's 429 is a rate limit or a spent day or plan
 * depending on its details (`googleQuota`).
 */
import { PlatformError } from '../types.js';

export interface VendorError {
  /** HTTP status; 0 for an error event inside a 200 stream. */
  status: number;
  /** The vendor's own code (or type / gRPC status), as shown in errorMessage. */
  code?: string;
  message?: string;
  retryAfterSeconds?: number;
  /** Google's quota verdict on a RESOURCE_EXHAUSTED (see `googleQuota`). */
  quota?: QuotaVerdict;
}

/**
 * `spent`: the quota will not come back within our retry rounds (a day's or
 * the plan's), so the sub task ends `error`; `window`: a short window that a
 * retry outlasts.
 */
export type QuotaVerdict = 'spent' | 'window';

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

interface QuotaViolation {
  quotaId: string;
  quotaMetric: string;
  quotaValue?: string;
}

/** Google's `QuotaFailure.violations` among an error's details. */
function violationsOf(details: unknown): QuotaViolation[] {
  if (!Array.isArray(details)) return [];
  return details
    .filter(isObj)
    .flatMap((d) => (Array.isArray(d.violations) ? d.violations.filter(isObj) : []))
    .filter((v) => text(v.quotaId) ?? text(v.quotaMetric))
    .map((v) => ({
      quotaId: text(v.quotaId) ?? '',
      quotaMetric: text(v.quotaMetric) ?? '',
      quotaValue: text(v.quotaValue),
    }));
}

const PER_DAY = /per_?day|daily/i;
const ZERO_LIMIT = /\blimit: ?0\b/;
const SPENT_PLAN = /billing|\bplan\b|free[ _-]?tier|per[ _-]?day|daily|prepa(?:y|id)|credits/i;

/**
 * Google's verdict on a RESOURCE_EXHAUSTED, and the quota that decided it.
 * Gemini sends every quota error as a 429 with one message ("…please check
 * your plan and billing details"), per-minute limits included, so the
 * structured details decide before the words do:
 * - a violated per-day quota (`quotaId`/`quotaMetric` with PerDay, per_day):
 *   spent, even beside a RetryInfo (Google adds a short `retryDelay` to those
 *   too, and a retry would only fail again until the day turns);
 * - a zero limit (`quotaValue` "0", or "limit: 0" in the message): the plan
 *   has no quota for this model at all: spent;
 * - any other violation (per minute, per second) or a RetryInfo: a window;
 * - with neither, a message about billing, the plan, the free tier or a day:
 *   spent. A bare "Resource has been exhausted" says nothing and stays a
 *   rate limit (undefined).
 */
export function googleQuota(error: Obj): { verdict?: QuotaVerdict; quotaId?: string } {
  const violations = violationsOf(error.details);
  const message = text(error.message) ?? '';
  const idOf = (v: QuotaViolation | undefined) => (v ? v.quotaId || v.quotaMetric : undefined);
  const daily = violations.find((v) => PER_DAY.test(`${v.quotaId} ${v.quotaMetric}`));
  if (daily) return { verdict: 'spent', quotaId: idOf(daily) };
  const none = violations.find((v) => v.quotaValue === '0');
  if (none || ZERO_LIMIT.test(message)) return { verdict: 'spent', quotaId: idOf(none) };
  if (violations.length > 0 || retryDelayOf(error.details) !== undefined)
    return { verdict: 'window', quotaId: idOf(violations[0]) };
  return SPENT_PLAN.test(message) ? { verdict: 'spent' } : {};
}

interface ErrorFields {
  code?: string;
  message?: string;
  retry?: number;
  quota?: QuotaVerdict;
}

/** The code and message of a parsed error body in any of the vendors' envelopes. */
export function errorFields(body: unknown): ErrorFields {
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
    // Gemini: {error:{code:<http>, status, message, details}}: the gRPC status and
    // the reason or the violated quota name it.
    if (typeof e.status === 'string') {
      const quota = e.status === 'RESOURCE_EXHAUSTED' ? googleQuota(e) : {};
      const fields: ErrorFields = {
        code: [e.status, reasonOf(e.details), quota.quotaId].filter(Boolean).join('/'),
        message: text(e.message),
        retry: retryDelayOf(e.details),
      };
      if (quota.verdict) fields.quota = quota.verdict;
      return fields;
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
  let fields: ErrorFields = {};
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
  if (fields.quota !== undefined) e.quota = fields.quota;
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
  if (e.quota === 'spent') return 'billing';
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
