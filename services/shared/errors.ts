/**
 * The one error type of the service. It is a MoleculerError, so it crosses the
 * NATS wire as plain fields (`code` = HTTP status, `type` = stable UPPER_SNAKE
 * code, `data`); callers match on `type`/`code`, never on `instanceof`.
 */
import { Errors } from 'moleculer';

export interface FieldProblem {
  field: string;
  message: string;
}

export type ErrorType =
  | 'VALIDATION_FAILED'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'TOO_MANY_UNFINISHED'
  | 'TOO_MANY_STREAMS'
  | 'FORBIDDEN'
  | 'CONFIG_INVALID'
  | 'INTERNAL'
  | 'UNAVAILABLE';

export class AppError extends Errors.MoleculerError {
  constructor(message: string, code: number, type: ErrorType, data?: unknown) {
    super(message, code, type, data);
    this.name = 'AppError';
  }

  static invalid(errors: FieldProblem[]): AppError {
    const summary = errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message));
    return new AppError(`invalid request: ${summary.join('; ')}`, 400, 'VALIDATION_FAILED', {
      errors,
    });
  }

  static unauthorized(message: string): AppError {
    return new AppError(message, 401, 'UNAUTHORIZED');
  }

  static forbidden(message: string): AppError {
    return new AppError(message, 403, 'FORBIDDEN');
  }

  static notFound(what: string): AppError {
    return new AppError(`${what} not found`, 404, 'NOT_FOUND');
  }

  static rateLimited(message: string, retryAfterSeconds: number, type: ErrorType = 'RATE_LIMITED') {
    return new AppError(message, 429, type, {
      retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)),
    });
  }
}

/** The HTTP-facing view of any thrown value: known errors keep their status, others become 500. */
export function describeError(err: unknown): {
  status: number;
  type: string;
  message: string;
  data: Record<string, unknown> | undefined;
} {
  const e = err as {
    code?: unknown;
    type?: unknown;
    message?: unknown;
    data?: unknown;
    name?: unknown;
  };
  if (
    e &&
    typeof e.code === 'number' &&
    e.code >= 400 &&
    e.code < 600 &&
    typeof e.type === 'string' &&
    KNOWN_TYPES.has(e.type)
  ) {
    return {
      status: e.code,
      type: e.type,
      message: String(e.message),
      data: e.data && typeof e.data === 'object' ? (e.data as Record<string, unknown>) : undefined,
    };
  }
  // Moleculer's own transport errors mean a dependency is down, not a bug.
  if (e && typeof e.type === 'string' && UNAVAILABLE_TYPES.has(e.type)) {
    return {
      status: 503,
      type: 'UNAVAILABLE',
      message: 'service temporarily unavailable',
      data: undefined,
    };
  }
  return { status: 500, type: 'INTERNAL', message: 'internal error', data: undefined };
}

const KNOWN_TYPES = new Set<string>([
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'TOO_MANY_UNFINISHED',
  'TOO_MANY_STREAMS',
  'FORBIDDEN',
  'UNAVAILABLE',
]);

const UNAVAILABLE_TYPES = new Set<string>([
  'SERVICE_NOT_FOUND',
  'SERVICE_NOT_AVAILABLE',
  'REQUEST_TIMEOUT',
  'REQUEST_SKIPPED',
  'REQUEST_REJECTED',
  'QUEUE_FULL',
  'BAD_GATEWAY',
]);
