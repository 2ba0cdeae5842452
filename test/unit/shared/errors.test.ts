import t from 'tap';
import { Errors } from 'moleculer';
import { AppError, describeError } from '../../../services/shared/errors.js';

t.test('AppError carries code, type and data and is a MoleculerError', async (t) => {
  const err = new AppError('nope', 404, 'NOT_FOUND', { id: 1 });
  t.ok(err instanceof Errors.MoleculerError);
  t.ok(err instanceof Error);
  t.equal(err.name, 'AppError');
  t.equal(err.message, 'nope');
  t.equal(err.code, 404);
  t.equal(err.type, 'NOT_FOUND');
  t.same(err.data, { id: 1 });
});

t.test('AppError.invalid summarises every problem', async (t) => {
  const err = AppError.invalid([
    { field: 'prompts', message: 'must contain at least one prompt' },
    { field: '', message: 'something general' },
  ]);
  t.equal(err.code, 400);
  t.equal(err.type, 'VALIDATION_FAILED');
  t.equal(
    err.message,
    'invalid request: prompts: must contain at least one prompt; something general',
  );
  t.same(err.data, {
    errors: [
      { field: 'prompts', message: 'must contain at least one prompt' },
      { field: '', message: 'something general' },
    ],
  });
});

t.test('AppError.unauthorized and notFound', async (t) => {
  const u = AppError.unauthorized('token expired');
  t.equal(u.code, 401);
  t.equal(u.type, 'UNAUTHORIZED');
  t.equal(u.message, 'token expired');
  const n = AppError.notFound('task');
  t.equal(n.code, 404);
  t.equal(n.type, 'NOT_FOUND');
  t.equal(n.message, 'task not found');
});

t.test('AppError.rateLimited rounds retryAfter up, at least 1 second', async (t) => {
  const r = AppError.rateLimited('slow down', 0.2);
  t.equal(r.code, 429);
  t.equal(r.type, 'RATE_LIMITED');
  t.same(r.data, { retryAfter: 1 });
  t.same(AppError.rateLimited('x', 2.01).data, { retryAfter: 3 });
  t.same(AppError.rateLimited('x', 0).data, { retryAfter: 1 });
  const u = AppError.rateLimited('too many', 60, 'TOO_MANY_UNFINISHED');
  t.equal(u.type, 'TOO_MANY_UNFINISHED');
  t.same(u.data, { retryAfter: 60 });
});

t.test('describeError keeps status, type, message and data of AppErrors', async (t) => {
  t.same(describeError(AppError.invalid([{ field: 'page', message: 'bad' }])), {
    status: 400,
    type: 'VALIDATION_FAILED',
    message: 'invalid request: page: bad',
    data: { errors: [{ field: 'page', message: 'bad' }] },
  });
  t.same(describeError(AppError.unauthorized('invalid token')), {
    status: 401,
    type: 'UNAUTHORIZED',
    message: 'invalid token',
    data: undefined,
  });
  t.same(describeError(AppError.notFound('task')), {
    status: 404,
    type: 'NOT_FOUND',
    message: 'task not found',
    data: undefined,
  });
  t.same(describeError(AppError.rateLimited('slow', 1.5)), {
    status: 429,
    type: 'RATE_LIMITED',
    message: 'slow',
    data: { retryAfter: 2 },
  });
  t.same(describeError(new AppError('too big', 413, 'PAYLOAD_TOO_LARGE')), {
    status: 413,
    type: 'PAYLOAD_TOO_LARGE',
    message: 'too big',
    data: undefined,
  });
});

t.test('errors that crossed the wire as plain objects are recognised by fields', async (t) => {
  t.same(describeError({ code: 404, type: 'NOT_FOUND', message: 'task not found', data: 'x' }), {
    status: 404,
    type: 'NOT_FOUND',
    message: 'task not found',
    data: undefined,
  });
});

t.test('unknown errors become a 500 that leaks nothing', async (t) => {
  const internal = { status: 500, type: 'INTERNAL', message: 'internal error', data: undefined };
  t.same(describeError(new Error('secret mongo password in here')), internal);
  t.same(describeError(new TypeError('x is undefined')), internal);
  t.same(describeError('a thrown string'), internal);
  t.same(describeError(null), internal);
  t.same(describeError(undefined), internal);
  t.same(describeError(42), internal);
  t.same(
    describeError(new AppError('bad config: secret', 500, 'CONFIG_INVALID', [{ field: 'X' }])),
    internal,
    'types outside the public set are not exposed',
  );
  t.same(describeError(new AppError('boom', 500, 'INTERNAL')), internal);
  t.same(
    describeError({ code: 200, type: 'NOT_FOUND', message: 'x' }),
    internal,
    'a non-error status is not trusted',
  );
  t.same(describeError({ code: 600, type: 'NOT_FOUND', message: 'x' }), internal);
  t.same(describeError({ code: '404', type: 'NOT_FOUND', message: 'x' }), internal);
  t.same(
    describeError(new Errors.ValidationError('params bad', 'VALIDATION_ERROR', {})),
    internal,
    "moleculer's own validation error is not a client-facing type",
  );
});

t.test('moleculer transport errors mean the dependency is unavailable (503)', async (t) => {
  const unavailable = {
    status: 503,
    type: 'UNAVAILABLE',
    message: 'service temporarily unavailable',
    data: undefined,
  };
  for (const type of [
    'SERVICE_NOT_FOUND',
    'SERVICE_NOT_AVAILABLE',
    'REQUEST_TIMEOUT',
    'REQUEST_SKIPPED',
    'REQUEST_REJECTED',
    'QUEUE_FULL',
    'BAD_GATEWAY',
  ]) {
    t.same(describeError({ type }), unavailable, type);
  }
  t.same(
    describeError(new Errors.ServiceNotFoundError({ action: 'tasks.submit', nodeID: 'n1' })),
    unavailable,
  );
  t.same(
    describeError(new Errors.RequestTimeoutError({ action: 'tasks.submit', nodeID: 'n1' })),
    unavailable,
  );
  t.same(
    describeError(new Errors.ServiceNotAvailableError({ action: 'users.login', nodeID: 'n1' })),
    unavailable,
  );
  t.same(
    describeError(new AppError('down', 503, 'UNAVAILABLE')),
    { status: 503, type: 'UNAVAILABLE', message: 'down', data: undefined },
    'an explicit UNAVAILABLE AppError keeps its message',
  );
});
