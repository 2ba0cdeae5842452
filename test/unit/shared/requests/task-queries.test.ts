import t from 'tap';
import { checkListQuery, checkTaskId } from '../../../../services/shared/requests/task-queries.js';
import { AppError } from '../../../../services/shared/errors.js';

function refused(query: Record<string, unknown>): { field: string; message: string }[] {
  try {
    checkListQuery(query);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code !== 400 || err.type !== 'VALIDATION_FAILED') {
      throw new Error(`unexpected error ${err.code} ${err.type}`);
    }
    return (err.data as { errors: { field: string; message: string }[] }).errors;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
}

const STATUS_MESSAGE =
  'status must be one of pending, processing, completed, partial_completed, failed';

t.test('defaults: page 1, size 10, no status', async (t) => {
  t.same(checkListQuery({}), { page: 1, size: 10, status: undefined });
});

t.test('valid values are converted', async (t) => {
  t.same(checkListQuery({ page: '3', size: '25', status: 'completed' }), {
    page: 3,
    size: 25,
    status: 'completed',
  });
  t.same(checkListQuery({ size: '1' }), { page: 1, size: 1, status: undefined });
  t.same(checkListQuery({ size: '100' }), { page: 1, size: 100, status: undefined });
  t.same(checkListQuery({ page: '007' }), { page: 7, size: 10, status: undefined });
  for (const status of ['pending', 'processing', 'completed', 'partial_completed', 'failed']) {
    t.equal(checkListQuery({ status }).status, status);
  }
  t.same(
    checkListQuery({ other: 'x', sort: 'desc' }),
    { page: 1, size: 10, status: undefined },
    'unknown parameters ignored',
  );
});

t.test('size outside 1..100', async (t) => {
  t.same(refused({ size: '101' }), [{ field: 'size', message: 'size must be at most 100' }]);
  t.same(refused({ size: '0' }), [{ field: 'size', message: 'size must be at least 1' }]);
  t.same(refused({ size: '-1' }), [{ field: 'size', message: 'size must be a whole number' }]);
});

t.test('values that are not whole numbers', async (t) => {
  for (const v of ['abc', '1.5', '', ' 2', '1e2', '0x10', '+3']) {
    t.same(
      refused({ page: v }),
      [{ field: 'page', message: 'page must be a whole number' }],
      `page=${JSON.stringify(v)}`,
    );
  }
  t.same(refused({ size: 'abc' }), [{ field: 'size', message: 'size must be a whole number' }]);
  t.same(refused({ size: '1.5' }), [{ field: 'size', message: 'size must be a whole number' }]);
  t.same(refused({ page: '0' }), [{ field: 'page', message: 'page must be at least 1' }]);
});

t.test('a repeated parameter (array value) is refused', async (t) => {
  t.same(refused({ page: ['1', '2'] }), [{ field: 'page', message: 'page must be given once' }]);
  t.same(refused({ size: ['10', '10'] }), [{ field: 'size', message: 'size must be given once' }]);
  t.same(refused({ status: ['pending', 'failed'] }), [
    { field: 'status', message: STATUS_MESSAGE },
  ]);
  t.same(refused({ page: 2 }), [{ field: 'page', message: 'page must be given once' }]);
});

t.test('unknown status', async (t) => {
  t.same(refused({ status: 'done' }), [{ field: 'status', message: STATUS_MESSAGE }]);
  t.same(refused({ status: 'Completed' }), [{ field: 'status', message: STATUS_MESSAGE }]);
  t.same(refused({ status: '' }), [{ field: 'status', message: STATUS_MESSAGE }]);
});

t.test('every bad parameter is listed in one error', async (t) => {
  let err: unknown;
  try {
    checkListQuery({ page: '0', size: '1.5', status: 'x' });
  } catch (e) {
    err = e;
  }
  t.ok(err instanceof AppError);
  const e = err as AppError;
  t.equal(e.code, 400);
  t.equal(e.type, 'VALIDATION_FAILED');
  t.same(e.data, {
    errors: [
      { field: 'page', message: 'page must be at least 1' },
      { field: 'size', message: 'size must be a whole number' },
      { field: 'status', message: STATUS_MESSAGE },
    ],
  });
  t.equal(
    e.message,
    `invalid request: page: page must be at least 1; size: size must be a whole number; status: ${STATUS_MESSAGE}`,
  );
});

t.test('checkTaskId', async (t) => {
  const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  t.equal(checkTaskId(id), id);
  t.equal(checkTaskId(id.toUpperCase()), id, 'lowercased');
  t.equal(checkTaskId('3F2504E0-4f89-41D3-9a0c-0305E82C3301'), id);
  for (const bad of [
    '',
    'abc',
    `${id}x`,
    id.replace(/-/g, ''),
    ` ${id}`,
    42,
    null,
    undefined,
    [id],
  ]) {
    t.throws(
      () => checkTaskId(bad),
      {
        code: 400,
        type: 'VALIDATION_FAILED',
        message: 'invalid request: taskId: must be a UUID',
        data: { errors: [{ field: 'taskId', message: 'must be a UUID' }] },
      },
      `${JSON.stringify(bad)} refused`,
    );
  }
});
