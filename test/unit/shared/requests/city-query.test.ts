import t from 'tap';
import { checkCityInfoQuery } from '../../../../services/shared/requests/city-query.js';
import type { AppError } from '../../../../services/shared/errors.js';

t.test('deduplicate: true, false, 1 or 0; absent is false', async (t) => {
  t.same(checkCityInfoQuery({}), { deduplicate: false });
  for (const v of ['true', 'TRUE', 'True', '1']) {
    t.same(checkCityInfoQuery({ deduplicate: v }), { deduplicate: true }, v);
  }
  for (const v of ['false', 'FALSE', '0']) {
    t.same(checkCityInfoQuery({ deduplicate: v }), { deduplicate: false }, v);
  }
  t.same(checkCityInfoQuery({ other: 'x' }), { deduplicate: false }, 'other parameters ignored');
});

function refusal(deduplicate: unknown): AppError {
  try {
    checkCityInfoQuery({ deduplicate });
  } catch (err) {
    return err as AppError;
  }
  throw new Error(`accepted ${JSON.stringify(deduplicate)}`);
}

t.test('anything else is a 400 that states the rule', async (t) => {
  for (const v of ['maybe', '', 'yes', '2', ' true', ['true', 'false']]) {
    const err = refusal(v);
    t.match(err, { code: 400, type: 'VALIDATION_FAILED' }, JSON.stringify(v));
    t.same(err.data, {
      errors: [
        {
          field: 'deduplicate',
          message: Array.isArray(v)
            ? 'deduplicate must be true or false (1 or 0), given once'
            : 'deduplicate must be true or false (1 or 0)',
        },
      ],
    });
  }
});
