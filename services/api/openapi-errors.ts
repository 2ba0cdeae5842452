/**
 * The error answers in the OpenAPI document: every error type the api
 * answers with (services/shared/errors.ts), its HTTP status, and per status
 * the envelope with an example of each type that status carries.
 */
import { AppError, type ErrorType } from '../shared/errors.js';
import { errorEnvelopeSchema } from '../shared/contracts/http.js';
import { checkSubmission } from '../shared/requests/submission.js';
import type { Examples, Json, SchemaSet } from './openapi-parts.js';

export type Status = '400' | '401' | '403' | '404' | '413' | '415' | '422' | '429' | '500' | '503';

interface ErrorKind {
  type: ErrorType;
  status: Status;
  when: string;
  /** The `message` and fields of an answer of this type. */
  example: { message: string; errors?: { field: string; message: string }[]; requestId?: string };
}

/**
 * The submission the 400 example answers: no prompts, and a mode the platform
 * does not have. A test posts it and gets the example back.
 */
export const VALIDATION_EXAMPLE_REQUEST = {
  prompts: [],
  platforms: [{ platform: 'chatgpt', mode: 'flying' }],
};

/** The 400 example as the service's own validator words it, field names and all. */
function validationExample(): ErrorKind['example'] {
  const checked = checkSubmission(VALIDATION_EXAMPLE_REQUEST);
  if (checked.ok) throw new Error('the 400 example submission must be refused');
  return { message: AppError.invalid(checked.errors).message, errors: checked.errors };
}

const REQUEST_ID = '5d2c0c8e-6b1f-4f7a-a0f4-1f9e2c3b4a5d';

/** Every type the api answers with; CONFLICT and CONFIG_INVALID stay inside the cluster. */
export const ERROR_KINDS: readonly ErrorKind[] = [
  {
    type: 'VALIDATION_FAILED',
    status: '400',
    when: 'Invalid input: every violated rule is listed in `errors`, by field',
    example: validationExample(),
  },
  {
    type: 'UNAUTHORIZED',
    status: '401',
    when: 'Missing, invalid or expired token',
    example: { message: 'token expired: request a new one' },
  },
  {
    type: 'FORBIDDEN',
    status: '403',
    when: 'The token is valid but its user lacks the role (operator routes)',
    example: { message: 'operator role required' },
  },
  {
    type: 'NOT_FOUND',
    status: '404',
    when: 'Unknown task or sub task, one of another user, or an unknown route',
    example: { message: 'task not found' },
  },
  {
    type: 'PAYLOAD_TOO_LARGE',
    status: '413',
    when: 'Body larger than the limit (MAX_BODY_BYTES, 1 MiB by default)',
    example: { message: 'request body is larger than 1048576 bytes' },
  },
  {
    type: 'UNSUPPORTED_MEDIA_TYPE',
    status: '415',
    when: 'Body is not application/json',
    example: { message: 'Content-Type must be application/json' },
  },
  {
    type: 'IDEMPOTENCY_KEY_REUSED',
    status: '422',
    when: 'The Idempotency-Key of an earlier submission came with another request body: a new request needs a new key',
    example: {
      message:
        'this Idempotency-Key was sent with another request (task 8f0c1c4e-2b47-8f1e-9d0e-0e8a7c1b2f3a): a new request needs a new key',
    },
  },
  {
    type: 'RATE_LIMITED',
    status: '429',
    when: 'Too many requests (per user, or per client address on public routes); wait Retry-After seconds',
    example: { message: 'rate limit exceeded: slow down' },
  },
  {
    type: 'TOO_MANY_UNFINISHED',
    status: '429',
    when: 'The submission would pass the limit of unfinished sub tasks per user (MAX_UNFINISHED_SUBTASKS)',
    example: { message: 'too many unfinished sub tasks: 990 running, 20 submitted, limit 1000' },
  },
  {
    type: 'TOO_MANY_STREAMS',
    status: '429',
    when: 'Too many open task event streams for the user on this api node (SSE_MAX_PER_USER)',
    example: { message: 'too many open event streams: at most 5 per user' },
  },
  {
    type: 'INTERNAL',
    status: '500',
    when: 'A fault of the service; the message carries a request id and nothing internal',
    example: { message: `internal error (request id ${REQUEST_ID})`, requestId: REQUEST_ID },
  },
  {
    type: 'UNAVAILABLE',
    status: '503',
    when: 'A service this route needs is down; try again later',
    example: {
      message: `service temporarily unavailable (request id ${REQUEST_ID})`,
      requestId: REQUEST_ID,
    },
  },
];

/** The statuses of an authenticated route; `JSON_BODY` adds those of a request body. */
export const PROTECTED: readonly Status[] = ['401', '429', '500', '503'];
export const JSON_BODY: readonly Status[] = ['400', '413', '415'];

/** Types only some routes answer with; the others carry the status's first kind. */
const ROUTE_SPECIFIC = new Set<ErrorType>([
  'TOO_MANY_UNFINISHED',
  'TOO_MANY_STREAMS',
  'IDEMPOTENCY_KEY_REUSED',
]);

const bodyOf = (kind: ErrorKind) => ({
  success: false,
  code: Number(kind.status),
  message: kind.example.message,
  data: null,
  ...(kind.example.errors ? { errors: kind.example.errors } : {}),
  ...(kind.example.requestId ? { requestId: kind.example.requestId } : {}),
});

const kindsOf = (status: Status, also: readonly ErrorType[]) =>
  ERROR_KINDS.filter(
    (k) => k.status === status && (!ROUTE_SPECIFIC.has(k.type) || also.includes(k.type)),
  );

const examplesOf = (kinds: readonly ErrorKind[]): Examples =>
  Object.fromEntries(kinds.map((k) => [k.type, { summary: k.type, value: bodyOf(k) }]));

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer', minimum: 1 },
    example: 1,
  },
};

/** A route's own reason for a status, and the answer it gives then. */
export interface Reason {
  text: string;
  example?: ErrorKind['example'];
}

export const TASK_ID_REASON: Reason = {
  text: 'taskId is not a UUID',
  example: {
    message: 'invalid request: taskId: must be a UUID',
    errors: [{ field: 'taskId', message: 'must be a UUID' }],
  },
};

/**
 * Error answers in the envelope. `reasons` replaces the generic text (and
 * example) of some statuses; `also` adds the route-specific types
 * (TOO_MANY_UNFINISHED, TOO_MANY_STREAMS).
 */
export function errorResponses(
  set: SchemaSet,
  statuses: readonly Status[],
  reasons: Partial<Record<Status, string | Reason>> = {},
  also: readonly ErrorType[] = [],
): Record<string, Json> {
  return Object.fromEntries(
    statuses.map((s) => {
      const given = reasons[s];
      const reason = typeof given === 'string' ? { text: given } : given;
      const kinds = kindsOf(s, also).map((k, i) =>
        i === 0 && reason?.example ? { ...k, example: reason.example } : k,
      );
      return [
        s,
        {
          description: reason?.text ?? kinds.map((k) => k.when).join('; or '),
          ...(s === '429' ? { headers: RETRY_AFTER } : {}),
          ...set.content(errorEnvelopeSchema, examplesOf(kinds)),
        },
      ];
    }),
  );
}

/**
 * The table of error types, for the envelope's description: the wire
 * carries the status as `code`, and clients tell the kinds of one status
 * apart by this table.
 */
export function errorTypesTable(): string {
  const rows = ERROR_KINDS.map((k) => `| ${k.status} | \`${k.type}\` | ${k.when} |`);
  return [
    'Every error answers this envelope: `success` false, `code` = the HTTP status, `message` saying what is wrong, `data` null; `errors` lists every invalid field of a 400, and `requestId` identifies a 5xx in the logs. Each answer also carries an `x-request-id` header.',
    '',
    '| Status | Type | When |',
    '|---|---|---|',
    ...rows,
    '| 405 | — | The path does not allow the method; the `Allow` header lists those it does |',
    '| 501 | — | A method the service does not know (QUERY, PROPFIND, …) |',
  ].join('\n');
}
