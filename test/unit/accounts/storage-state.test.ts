import t from 'tap';
import { asStorageState } from '../../../services/accounts/storage-state.js';
import { storageStateFor } from '../../../replicas/common/site.js';

t.test('a Playwright storage state passes, extra fields kept', async (t) => {
  const state = storageStateFor('https://www.kimi.com', {
    cookies: { session: 'v' },
    localStorage: { token: 't' },
  });
  t.same(asStorageState(state), state);
  const partitioned = { ...state, cookies: [{ ...state.cookies[0]!, partitionKey: 'x' }] };
  t.same(asStorageState(partitioned), partitioned);
});

t.test('other shapes are refused naming the field', async (t) => {
  t.throws(() => asStorageState({ cookies: [] }), { code: 400, message: /storageState\.origins/ });
  t.throws(() => asStorageState([]), { code: 400 });
  t.throws(
    () =>
      asStorageState(
        {
          cookies: [
            {
              name: 'a',
              value: 'b',
              domain: 'x',
              path: '/',
              expires: -1,
              httpOnly: true,
              secure: false,
              sameSite: 'lax',
            },
          ],
          origins: [],
        },
        'file',
      ),
    { message: /file\.cookies\.0\.sameSite/ },
  );
  t.throws(
    () =>
      asStorageState({
        cookies: [],
        origins: [{ origin: 'https://x.com/path', localStorage: [] }],
      }),
    {
      message: /origins\.0\.origin/,
    },
  );
});
